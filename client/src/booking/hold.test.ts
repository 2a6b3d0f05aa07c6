import { describe, expect, it } from 'vitest';
import {
  bookedTime,
  formatMmSs,
  heldTime,
  holdDeadline,
  holdMoment,
  holdRefusal,
  liveHold,
  nextRenewalDelay,
  parseHoldReply,
  secondsLeft,
  timeHeld,
} from './hold';

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

describe('one steady countdown', () => {
  const minute = 60_000;
  const cap = now + 30 * minute; // holdEndsBy: the attempt's first hold + HOLD_TOTAL_MINUTES

  it('does not jump when the review renews the hold: it counts to the end renewals may reach', () => {
    // The hold placed now ends in 10 minutes; renewed 4 minutes later it ends in 14.
    const shown = (at: number, expiresAt: number) => secondsLeft(holdDeadline('draft', expiresAt, cap, false), at);
    const before = shown(now + 4 * minute - 1000, now + 10 * minute);
    const after = shown(now + 4 * minute, now + 14 * minute);
    expect(formatMmSs(before)).toBe('26:01');
    expect(formatMmSs(after)).toBe('26:00');
    // Second by second through many renewals it only ever goes down, to 00:00 at the cap.
    let previous = Number.POSITIVE_INFINITY;
    for (let at = now; at <= cap; at += 1000) {
      const renewedAt = now + Math.floor((at - now) / (4 * minute)) * 4 * minute;
      const left = shown(at, Math.min(renewedAt + 10 * minute, cap));
      expect(left).toBeLessThanOrEqual(previous);
      previous = left;
    }
    expect(previous).toBe(0);
  });

  it("counts the hold's own end when the cap is unknown or renewals are refused, and for a payment", () => {
    expect(holdDeadline('draft', now + 10 * minute, null, false)).toBe(now + 10 * minute);
    expect(holdDeadline('draft', now + 10 * minute, cap, true)).toBe(now + 10 * minute);
    // After a cancelled card payment the hold lasts until the checkout session's end (+ grace).
    expect(holdDeadline('pending_payment', now + 36 * minute, cap, false)).toBe(now + 36 * minute);
  });

  it("keeps the chosen time of a booking back from a cancelled payment (it waits for its payment)", () => {
    const waiting = { ...held, status: 'pending_payment', holdExpiresAt: '2025-03-05T00:36:00.000Z' };
    expect(liveHold(waiting, 'Asia/Tokyo', now)).toBeNull(); // not renewable...
    expect(heldTime(waiting, 'UTC')).toMatchObject({ date: '2025-03-06', time: '10:00', counselorId: 'c-sato' }); // ...but held
    expect(timeHeld(waiting, now)).toBe(true);
    expect(timeHeld({ ...waiting, status: 'confirmed' }, now)).toBe(false);
    expect(timeHeld(held, Date.parse('2025-03-05T00:10:00Z'))).toBe(false);
  });

  it("reads the hold's reply: the cap and how far the server's clock is ahead", () => {
    // Sent at 0 s and answered at 2 s on a device 90 s behind the server.
    const reply = { holdExpiresAt: '2025-03-05T00:11:31.000Z', holdEndsBy: '2025-03-05T00:31:31.000Z', serverTime: '2025-03-05T00:01:31.000Z' };
    expect(parseHoldReply(reply, now, now + 2000)).toEqual({
      expiresAt: Date.parse('2025-03-05T00:11:31Z'),
      endsBy: Date.parse('2025-03-05T00:31:31Z'),
      offsetMs: 90_000,
    });
    expect(parseHoldReply({ holdExpiresAt: '2025-03-05T00:10:00.000Z' }, now, now)).toEqual({
      expiresAt: now + 10 * minute,
      endsBy: null,
      offsetMs: 0,
    });
    expect(parseHoldReply({}, now, now)).toBeNull();
  });

  it('is announced at five minutes, at one minute and at the end only', () => {
    expect(holdMoment(301)).toBeNull();
    expect(holdMoment(300)).toBe('fiveMinutes');
    expect(holdMoment(61)).toBe('fiveMinutes');
    expect(holdMoment(60)).toBe('oneMinute');
    expect(holdMoment(1)).toBe('oneMinute');
    expect(holdMoment(0)).toBe('expired');
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
