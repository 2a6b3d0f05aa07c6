/**
 * The inactivity countdown and the realtime client together: what the person does while the
 * socket is down reaches the server as one `activity` as soon as it is back, so the server's
 * own timer (which signs out at 600 s) does not end the session of someone who kept typing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRealtimeClient } from '../realtime/client';
import { FakeSocket } from '../test/fakeSocket';
import { createInactivityMonitor } from './inactivity';

function setup() {
  const sockets: FakeSocket[] = [];
  const realtime = createRealtimeClient({
    createSocket: (auth) => {
      const socket = new FakeSocket(auth);
      sockets.push(socket);
      return socket;
    },
    getToken: () => 'tok',
  });
  const socket = () => {
    const last = sockets.at(-1);
    if (!last) throw new Error('no socket yet');
    return last;
  };
  const monitor = createInactivityMonitor();
  const onExpire = vi.fn();
  let step = 'family';
  monitor.start({
    send: (current) => {
      realtime.activity(current);
    },
    step: () => step,
    onExpire,
  });
  realtime.onSession((notice) => {
    monitor.session(notice);
  });
  realtime.connect();
  socket().serverConnect();
  const activities = () => sockets.flatMap((s) => s.sent).filter((s) => s.event === 'activity');
  return {
    realtime,
    monitor,
    onExpire,
    socket,
    activities,
    goTo: (next: string) => {
      step = next;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('activity while the socket is down', () => {
  it('is sent once, with the step the person is on, as soon as the socket reconnects', () => {
    const { monitor, socket, activities, goTo } = setup();
    monitor.activity();
    expect(activities()).toEqual([{ event: 'activity', payload: { step: 'family' } }]);

    // Offline for nine minutes, typing all along (every 20 s), and moving on a step.
    socket().dropConnection();
    for (let second = 20; second <= 540; second += 20) {
      vi.advanceTimersByTime(20_000);
      if (second === 300) goTo('fertility-treatment');
      monitor.activity();
    }
    expect(activities()).toHaveLength(1);
    expect(monitor.getState().phase).toBe('active');

    socket().serverConnect();
    expect(activities()).toEqual([
      { event: 'activity', payload: { step: 'family' } },
      { event: 'activity', payload: { step: 'fertility-treatment' } },
    ]);
  });

  it('keeps the session: the server restarts every countdown on it, and no sign-out follows', () => {
    const { monitor, socket, activities, onExpire } = setup();
    socket().dropConnection();
    vi.advanceTimersByTime(530_000);
    monitor.activity(); // typed offline, 70 s before the server's limit
    socket().serverConnect();
    expect(activities()).toHaveLength(1);
    // The server heard it and answers every tab of the session with a full countdown.
    socket().fire('session', { state: 'active', secondsLeft: 600 });
    vi.advanceTimersByTime(120_000);
    expect(monitor.getState().phase).toBe('active');
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('sends nothing on a reconnect when the person did nothing meanwhile', () => {
    const { monitor, socket, activities } = setup();
    monitor.activity();
    socket().dropConnection();
    vi.advanceTimersByTime(120_000);
    socket().serverConnect();
    expect(activities()).toHaveLength(1);
  });
});
