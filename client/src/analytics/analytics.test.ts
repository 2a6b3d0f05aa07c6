import { describe, expect, it, vi } from 'vitest';
import type { CallFunction } from '../realtime/callable';
import { createAnalytics, sanitizeDescription } from './analytics';
import { installErrorReporting, MAX_EXCEPTIONS_PER_PAGE, reportsUntilLoaded } from './reporting';

function setup(options: { now?: () => number } = {}) {
  const calls: { name: string; data: unknown }[] = [];
  const call = vi.fn((name: string, data?: unknown) => {
    calls.push({ name, data });
    return Promise.resolve({ logged: true });
  }) as unknown as CallFunction;
  return { calls, call, analytics: createAnalytics({ call, ...options }) };
}

const descriptions = (calls: { data: unknown }[]) =>
  calls.map((c) => (c.data as { params: { description: string } }).params.description);

describe('analytics events', () => {
  it('logs the login with the method and the host name only', () => {
    const { calls, analytics } = setup();
    analytics.logLogin('booking.example.jp');
    expect(calls).toEqual([
      {
        name: 'analytics-log',
        data: { name: 'login', params: { method: 'email-link-authentication', hostname: 'booking.example.jp' } },
      },
    ]);
  });

  it('logs an exception with its message, truncated to 500 characters', () => {
    const { calls, analytics } = setup();
    analytics.logException(new TypeError('x'.repeat(900)), true);
    const [only] = calls;
    expect(only?.data).toMatchObject({ name: 'exception', params: { fatal: true } });
    expect(descriptions(calls)[0]).toHaveLength(500);
    expect(descriptions(calls)[0]?.startsWith('TypeError: xxx')).toBe(true);
  });

  it('never sends addresses, tokens or query strings', () => {
    expect(sanitizeDescription('Failed for hanako@example.com at https://x.example/login-confirmation?token=abc123&next=/b')).toBe(
      'Failed for [email] at https://x.example/login-confirmation',
    );
    expect(sanitizeDescription('bad /login-confirmation?token=abc&x=1')).toBe('bad /login-confirmation?token=[redacted]&x=1');
    expect(sanitizeDescription('header Bearer abc.def')).toBe('header Bearer [redacted]');
  });

  it('does not send objects that were thrown, only a fixed text', () => {
    const { calls, analytics } = setup();
    analytics.logException({ email: 'hanako@example.com' }, false);
    expect(descriptions(calls)).toEqual(['Non-error value thrown']);
  });

  it('sends the same error once, however often it repeats', () => {
    const { calls, analytics } = setup();
    for (let i = 0; i < 100; i += 1) analytics.logException(new Error('render loop'), true);
    expect(calls).toHaveLength(1);
  });

  it('throttles different errors to 5 a minute and 20 a page', () => {
    let clock = 0;
    const { calls, analytics } = setup({ now: () => clock });
    for (let i = 0; i < 8; i += 1) analytics.logException(new Error(`e${i}`), false);
    expect(calls).toHaveLength(5);
    for (let minute = 1; minute <= 10; minute += 1) {
      clock = minute * 60_000;
      for (let i = 0; i < 8; i += 1) analytics.logException(new Error(`m${minute}-${i}`), false);
    }
    expect(calls).toHaveLength(20);
  });

  it('swallows a failing analytics call', async () => {
    const call = vi.fn(() => Promise.reject(new Error('offline'))) as unknown as CallFunction;
    const analytics = createAnalytics({ call });
    expect(analytics.logException(new Error('boom'), true)).toBe(true);
    await Promise.resolve();
    expect(call).toHaveBeenCalledWith('analytics-log', expect.anything(), { maxAttempts: 1 });
  });
});

describe('window error reporting', () => {
  it('sends uncaught errors (fatal) and unhandled rejections (not fatal) until stopped', () => {
    const { calls, analytics } = setup();
    const target = new EventTarget();
    const stop = installErrorReporting(target, analytics);
    target.dispatchEvent(new ErrorEvent('error', { error: new RangeError('too deep'), message: 'Uncaught RangeError' }));
    const rejection = new Event('unhandledrejection') as Event & { reason?: unknown };
    rejection.reason = new Error('fetch failed for hanako@example.com');
    target.dispatchEvent(rejection);
    target.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));
    expect(calls.map((c) => c.data)).toEqual([
      { name: 'exception', params: { description: 'RangeError: too deep', fatal: true } },
      { name: 'exception', params: { description: 'Error: fetch failed for [email]', fatal: false } },
      { name: 'exception', params: { description: 'Script error.', fatal: true } },
    ]);
    stop();
    target.dispatchEvent(new ErrorEvent('error', { error: new Error('after stop') }));
    expect(calls).toHaveLength(3);
  });

  it('keeps what happens before the analytics client loads and sends it, in order, once it is there', () => {
    const target = new EventTarget();
    const reports = reportsUntilLoaded();
    installErrorReporting(target, reports);
    target.dispatchEvent(new ErrorEvent('error', { error: new TypeError('early'), message: 'Uncaught TypeError' }));
    const rejection = new Event('unhandledrejection') as Event & { reason?: unknown };
    rejection.reason = new Error('chunk failed');
    target.dispatchEvent(rejection);
    const { calls, analytics } = setup();
    reports.attach(analytics);
    expect(calls.map((c) => c.data)).toEqual([
      { name: 'exception', params: { description: 'TypeError: early', fatal: true } },
      { name: 'exception', params: { description: 'Error: chunk failed', fatal: false } },
    ]);
    target.dispatchEvent(new ErrorEvent('error', { error: new Error('late') }));
    expect(descriptions(calls)).toEqual(['TypeError: early', 'Error: chunk failed', 'Error: late']);
  });

  it("keeps at most a page's worth of reports while it waits", () => {
    const reports = reportsUntilLoaded();
    const kept = Array.from({ length: 25 }, (_, n) => reports.logException(new Error(`loop ${String(n)}`), true));
    expect(kept.filter(Boolean)).toHaveLength(MAX_EXCEPTIONS_PER_PAGE);
    let clock = 0;
    const { calls, analytics } = setup({ now: () => (clock += 60_000) });
    reports.attach(analytics);
    expect(descriptions(calls)).toEqual(Array.from({ length: MAX_EXCEPTIONS_PER_PAGE }, (_, n) => `Error: loop ${String(n)}`));
  });
});
