import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInactivityMonitor, type InactivityHandlers } from './inactivity';

function setup() {
  const monitor = createInactivityMonitor();
  const handlers = {
    send: vi.fn<InactivityHandlers['send']>(),
    step: vi.fn(() => 'family'),
    onExpire: vi.fn<InactivityHandlers['onExpire']>(),
  };
  const changes: string[] = [];
  monitor.subscribe(() => {
    const { phase, secondsLeft } = monitor.getState();
    changes.push(`${phase}:${String(secondsLeft)}`);
  });
  monitor.start(handlers);
  return { monitor, handlers, changes };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('inactivity countdown', () => {
  it('warns under 60 seconds, counts each second, and ends at 600 s without activity', () => {
    const { monitor, handlers } = setup();
    expect(monitor.getState().phase).toBe('active');
    vi.advanceTimersByTime(539_999);
    expect(monitor.getState().phase).toBe('active');
    vi.advanceTimersByTime(1);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 60 });
    vi.advanceTimersByTime(1_000);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 59 });
    vi.advanceTimersByTime(58_000);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 1 });
    expect(handlers.onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(monitor.getState()).toEqual({ phase: 'expired', secondsLeft: 0 });
    expect(handlers.onExpire).toHaveBeenCalledExactlyOnceWith('timeout');
    vi.advanceTimersByTime(600_000);
    expect(handlers.onExpire).toHaveBeenCalledTimes(1);
  });

  it('restarts on activity and tells the server, at most once per 10 s with the last activity sent', () => {
    const { monitor, handlers } = setup();
    vi.advanceTimersByTime(300_000);
    monitor.activity();
    expect(handlers.send).toHaveBeenCalledExactlyOnceWith('family');
    vi.advanceTimersByTime(3_000);
    monitor.activity();
    monitor.activity();
    expect(handlers.send).toHaveBeenCalledTimes(1);
    // The trailing send 10 s after the first carries the burst.
    vi.advanceTimersByTime(7_000);
    expect(handlers.send).toHaveBeenCalledTimes(2);
    // 600 s after the last activity (at 303 s), not after the start.
    vi.advanceTimersByTime(303_000 + 540_000 - 310_000 - 1);
    expect(monitor.getState().phase).toBe('active');
    vi.advanceTimersByTime(1);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 60 });
  });

  it('ignores page activity while the warning shows; Continue restarts the countdown', () => {
    const { monitor, handlers } = setup();
    vi.advanceTimersByTime(550_000);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 50 });
    monitor.activity();
    expect(monitor.getState().phase).toBe('warning');
    expect(handlers.send).not.toHaveBeenCalled();
    monitor.continueSession();
    expect(monitor.getState().phase).toBe('active');
    expect(handlers.send).toHaveBeenCalledExactlyOnceWith('family');
    vi.advanceTimersByTime(539_999);
    expect(monitor.getState().phase).toBe('active');
    vi.advanceTimersByTime(1);
    expect(monitor.getState().phase).toBe('warning');
  });

  it('follows the server: `active` from another tab restarts, `warning` brings the count down, `expired` ends', () => {
    const { monitor, handlers } = setup();
    vi.advanceTimersByTime(545_000);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 55 });
    monitor.session({ state: 'active', secondsLeft: 600 });
    expect(monitor.getState().phase).toBe('active');
    vi.advanceTimersByTime(100_000);
    // The server counts from an earlier moment (another tab's last activity): its time wins.
    monitor.session({ state: 'warning', secondsLeft: 42 });
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 42 });
    vi.advanceTimersByTime(2_000);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 40 });
    monitor.session({ state: 'expired', secondsLeft: 0 });
    expect(monitor.getState().phase).toBe('expired');
    expect(handlers.onExpire).toHaveBeenCalledExactlyOnceWith('server');
  });

  it('ignores a server warning that crossed an activity on the wire', () => {
    const { monitor } = setup();
    vi.advanceTimersByTime(100_000);
    monitor.activity();
    vi.advanceTimersByTime(1_000);
    monitor.session({ state: 'warning', secondsLeft: 30 });
    expect(monitor.getState().phase).toBe('active');
  });

  it('stops counting when stopped (signed out) and starts afresh', () => {
    const { monitor, handlers } = setup();
    vi.advanceTimersByTime(500_000);
    monitor.stop();
    vi.advanceTimersByTime(600_000);
    expect(handlers.onExpire).not.toHaveBeenCalled();
    monitor.session({ state: 'expired', secondsLeft: 0 });
    expect(handlers.onExpire).not.toHaveBeenCalled();
    monitor.start(handlers);
    vi.advanceTimersByTime(540_000);
    expect(monitor.getState()).toEqual({ phase: 'warning', secondsLeft: 60 });
  });
});
