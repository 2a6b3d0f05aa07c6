import { describe, expect, it } from 'vitest';
import { bookedTime, formatMmSs, holdRefusal, liveHold, nextRenewalDelay, secondsLeft } from './hold';

const now = Date.parse('2025-03-05T00:00:00Z');
const held = {
  status: 'draft',
  date: '2025-03-06',
  time: '10:00',
  timezone: 'Asia/Tokyo',
  counselorId: 'c-sato',
  holdExpiresAt: '2025-03-05T00:10:00.000Z',
};

describe('the held time', () => {
  it('is read from the appointment in its clinic zone, start with the offset', () => {
    expect(bookedTime(held, 'UTC')).toEqual({
      date: '2025-03-06',
      time: '10:00',
      timeZone: 'Asia/Tokyo',
      counselorId: 'c-sato',
      start: '2025-03-06T10:00:00+09:00',
      expiresAt: Date.parse('2025-03-05T00:10:00Z'),
    });
    expect(bookedTime({ ...held, timezone: null }, 'Asia/Tokyo')?.start).toBe('2025-03-06T10:00:00+09:00');
    expect(bookedTime({ ...held, date: null }, 'Asia/Tokyo')).toBeNull();
  });

  it('is live only for a draft before its expiry', () => {
    expect(liveHold(held, 'Asia/Tokyo', now)).not.toBeNull();
    expect(liveHold(held, 'Asia/Tokyo', Date.parse('2025-03-05T00:10:00Z'))).toBeNull();
    expect(liveHold({ ...held, status: 'pending_payment' }, 'Asia/Tokyo', now)).toBeNull();
    expect(liveHold({ ...held, holdExpiresAt: null }, 'Asia/Tokyo', now)).toBeNull();
  });
});

describe('the countdown', () => {
  it('shows minutes and seconds left', () => {
    expect(secondsLeft(now + 599_001, now)).toBe(600);
    expect(formatMmSs(secondsLeft(now + 581_000, now))).toBe('09:41');
    expect(formatMmSs(0)).toBe('00:00');
    expect(formatMmSs(secondsLeft(now - 5000, now))).toBe('00:00');
    expect(formatMmSs(36 * 60 + 5)).toBe('36:05');
  });
});

describe('renewal timing', () => {
  it('renews 4 minutes after the last renewal, never later than a minute before the end', () => {
    expect(nextRenewalDelay(now + 10 * 60_000, now, now)).toBe(4 * 60_000);
    expect(nextRenewalDelay(now + 2 * 60_000, now, now)).toBe(60_000);
    expect(nextRenewalDelay(now + 30_000, now, now)).toBe(0);
    expect(nextRenewalDelay(now + 10 * 60_000, now + 60_000, now)).toBe(3 * 60_000);
  });
});

describe('a refused hold', () => {
  it('names the hold limit (with when a time may be held again) and missing consent', () => {
    expect(holdRefusal('aborted', { reason: 'holdLimit', retryAfter: '2025-03-05T00:40:00.000Z' })).toEqual({
      kind: 'limit',
      retryAfter: Date.parse('2025-03-05T00:40:00Z'),
    });
    expect(holdRefusal('aborted', { reason: 'holdLimit' })).toEqual({ kind: 'limit', retryAfter: null });
    expect(holdRefusal('invalid-argument', { fields: { consent: 'x' }, codes: { consent: 'consentRequired' } })).toEqual({
      kind: 'consent',
    });
  });

  it('is nothing of the kind for a taken time or another error', () => {
    expect(holdRefusal('aborted', { alternatives: [] })).toBeNull();
    expect(holdRefusal('aborted', undefined)).toBeNull();
    expect(holdRefusal('invalid-argument', { codes: { start: 'x' } })).toBeNull();
    expect(holdRefusal('resource-exhausted', { reason: 'holdLimit' })).toBeNull();
  });
});
