import { describe, expect, it } from 'vitest';
import { canMove, movableUntil, rescheduleRefusal } from './reschedule';

const START = '2026-12-10T10:00:00+09:00';

describe('movableUntil / canMove', () => {
  it('ends the minimum notice before the start', () => {
    expect(movableUntil(START, 24)).toBe(Date.parse('2026-12-09T10:00:00+09:00'));
  });

  it('allows a booked or pending time until then, and nothing else', () => {
    const until = movableUntil(START, 24);
    expect(canMove('confirmed', START, 24, until)).toBe(true);
    expect(canMove('pending_payment', START, 24, until - 1)).toBe(true);
    expect(canMove('confirmed', START, 24, until + 1)).toBe(false);
    expect(canMove('draft', START, 24, 0)).toBe(false);
    expect(canMove('cancelled', START, 24, 0)).toBe(false);
    expect(canMove(undefined, START, 24, 0)).toBe(false);
  });
});

describe('rescheduleRefusal', () => {
  it('tells a taken time by its alternatives', () => {
    const alternatives = [{ start: START, end: START, counselorIds: ['c-1'] }];
    expect(rescheduleRefusal('aborted', { alternatives })).toEqual({ kind: 'taken', alternatives });
  });

  it('tells a move inside the minimum notice, with its limit', () => {
    expect(rescheduleRefusal('aborted', { movableUntil: '2026-12-09T01:00:00Z' })).toEqual({
      kind: 'tooLate',
      until: Date.parse('2026-12-09T01:00:00Z'),
    });
    expect(rescheduleRefusal('aborted', { movableUntil: 'soon' })).toEqual({ kind: 'tooLate', until: null });
  });

  it('tells a status that does not allow a move', () => {
    expect(rescheduleRefusal('aborted', { status: 'cancelled' })).toEqual({ kind: 'status', status: 'cancelled' });
  });

  it('leaves every other failure to the generic messages', () => {
    expect(rescheduleRefusal('permission-denied', { status: 'x' })).toBeNull();
    expect(rescheduleRefusal('aborted', null)).toBeNull();
    expect(rescheduleRefusal('aborted', {})).toBeNull();
  });
});
