import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realtimeOverFakeSockets } from '../test/fakeSocket';
import { createConnectivityMonitor } from './connectivity';

function setup() {
  const world = { online: true, socketDown: false };
  const reconnect = vi.fn();
  const monitor = createConnectivityMonitor({
    browserOnline: () => world.online,
    socketDown: () => world.socketDown,
    reconnect,
  });
  return { monitor, world, reconnect };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('offline dialog timing', () => {
  it('opens 5 s after the browser goes offline and closes as soon as it is back', () => {
    const { monitor, world } = setup();
    world.online = false;
    monitor.update();
    vi.advanceTimersByTime(4_999);
    expect(monitor.getState().open).toBe(false);
    vi.advanceTimersByTime(1);
    expect(monitor.getState().open).toBe(true);
    world.online = true;
    monitor.update();
    expect(monitor.getState()).toEqual({ open: false, retrying: false, cause: null });
  });

  it('does not open for a loss shorter than 5 s', () => {
    const { monitor, world } = setup();
    world.socketDown = true;
    monitor.update();
    vi.advanceTimersByTime(3_000);
    world.socketDown = false;
    monitor.update();
    vi.advanceTimersByTime(10_000);
    expect(monitor.getState().open).toBe(false);
  });

  it('opens when the socket that should be up stays down: the server, not the browser', () => {
    const { monitor, world } = setup();
    world.socketDown = true;
    monitor.update();
    vi.advanceTimersByTime(5_000);
    expect(monitor.getState()).toEqual({ open: true, retrying: false, cause: 'server' });
  });

  it('says the browser once it goes offline while the server was unreachable', () => {
    const { monitor, world } = setup();
    world.socketDown = true;
    monitor.update();
    vi.advanceTimersByTime(5_000);
    world.online = false;
    monitor.update();
    expect(monitor.getState()).toEqual({ open: true, retrying: false, cause: 'browser' });
    world.online = true;
    monitor.update();
    expect(monitor.getState()).toEqual({ open: true, retrying: false, cause: 'server' });
  });

  it('retry: reconnects and spins until back, or for a few seconds', () => {
    const { monitor, world, reconnect } = setup();
    world.online = false;
    monitor.update();
    vi.advanceTimersByTime(5_000);
    monitor.retry();
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(monitor.getState()).toEqual({ open: true, retrying: true, cause: 'browser' });
    monitor.retry(); // a second press while spinning changes nothing
    expect(reconnect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(4_000);
    expect(monitor.getState()).toEqual({ open: true, retrying: false, cause: 'browser' });
    monitor.retry();
    world.online = true;
    monitor.update();
    expect(monitor.getState()).toEqual({ open: false, retrying: false, cause: null });
  });

  it('retry closes at once when the connection is already back', () => {
    const { monitor, world } = setup();
    world.online = false;
    monitor.update();
    vi.advanceTimersByTime(5_000);
    world.online = true; // no `online` event yet
    monitor.retry();
    expect(monitor.getState()).toEqual({ open: false, retrying: false, cause: null });
  });
});

describe('realtime client, presence part', () => {
  const client = () => realtimeOverFakeSockets({ token: null });

  it('sends the step with `activity`', () => {
    const { realtime, socket } = client();
    realtime.connect();
    socket().serverConnect();
    realtime.activity('family');
    realtime.activity();
    expect(socket().sent.filter((s) => s.event === 'activity')).toEqual([
      { event: 'activity', payload: { step: 'family' } },
      { event: 'activity', payload: {} },
    ]);
  });

  it('is open between connect and disconnect; reconnect retries only a socket that is down', () => {
    const { realtime, socket } = client();
    expect(realtime.isOpen()).toBe(false);
    realtime.reconnect(); // nothing to reconnect
    realtime.connect();
    expect(realtime.isOpen()).toBe(true);
    socket().serverConnect();
    realtime.reconnect(); // connected: nothing to do
    expect(socket().disconnectCalls).toBe(0);
    socket().dropConnection();
    realtime.reconnect();
    expect(socket().disconnectCalls).toBe(1);
    expect(socket().connectCalls).toBe(2);
    realtime.disconnect();
    expect(realtime.isOpen()).toBe(false);
  });
});
