/**
 * The inactivity countdown and the realtime client together. The countdown is the one
 * throttle of `activity` (at most one per 10 s, the last of a burst included); the realtime
 * client passes each on. What the person does while the socket is down reaches the server as
 * one `activity` as soon as it is back, so the server's own timer (which signs out at 600 s)
 * does not end the session of someone who kept typing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realtimeOverFakeSockets } from '../test/fakeSocket';
import { ACTIVITY_THROTTLE_MS, createInactivityMonitor } from './inactivity';

function setup() {
  const { realtime, sockets, socket } = realtimeOverFakeSockets();
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

describe('activity while connected', () => {
  it('reaches the server at most every 10 s while the person is active, the last of a burst included', () => {
    const { monitor, activities, goTo } = setup();
    expect(ACTIVITY_THROTTLE_MS).toBe(10_000);
    // Typing every second for 35 s, moving on a step at 33 s; the time of each event sent.
    const sentAt: number[] = [];
    const note = (second: number) => {
      while (sentAt.length < activities().length) sentAt.push(second);
    };
    for (let second = 0; second <= 35; second += 1) {
      if (second > 0) vi.advanceTimersByTime(1_000);
      if (second === 33) goTo('fertility-treatment');
      note(second);
      monitor.activity();
      note(second);
    }
    // Then nothing: the burst's last activity (35 s) goes with the send due at 40 s.
    for (let second = 36; second <= 60; second += 1) {
      vi.advanceTimersByTime(1_000);
      note(second);
    }
    expect(sentAt).toEqual([0, 10, 20, 30, 40]);
    expect(activities().at(-1)).toEqual({ event: 'activity', payload: { step: 'fertility-treatment' } });
  });

  it('sends a single activity at once, and a lone one after a burst at the end of the 10 s', () => {
    const { monitor, activities } = setup();
    monitor.activity();
    expect(activities()).toHaveLength(1);
    vi.advanceTimersByTime(3_000);
    monitor.activity(); // the last of the burst
    expect(activities()).toHaveLength(1);
    vi.advanceTimersByTime(6_999);
    expect(activities()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(activities()).toHaveLength(2);
    vi.advanceTimersByTime(60_000);
    expect(activities()).toHaveLength(2);
  });
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
