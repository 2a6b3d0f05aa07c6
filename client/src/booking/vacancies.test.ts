import { describe, expect, it } from 'vitest';
import { placeSlots } from './slots';
import { firstFreeDay, monthSlots, refusalAlternatives, takenNotice } from './vacancies';
import { CLINIC_ZONE, slot } from '../test/booking';

const march = placeSlots([slot('2025-03-05T10:00', ['c-sato']), slot('2025-03-05T11:00'), slot('2025-03-06T09:00')], CLINIC_ZONE);
const at = (wall: string) => Date.parse(`${wall}:00+09:00`);

describe('free times from what the server sends', () => {
  it('finds the first free clinic day of a vacancies-read reply, in its zone or the fallback', () => {
    expect(firstFreeDay({ timezone: 'Asia/Tokyo', slots: [slot('2025-03-06T00:30'), slot('2025-03-07T10:00')] }, 'UTC')).toBe('2025-03-06');
    expect(firstFreeDay({ slots: [slot('2025-03-06T00:30')] }, 'UTC')).toBe('2025-03-05');
    expect(firstFreeDay({ timezone: 'Asia/Tokyo', slots: [] }, 'UTC')).toBeNull();
  });

  it("puts the person's own hold back only in its own month", () => {
    const doc = { path: 'vacancies/c/s/2025-03', exists: true, data: { slots: [slot('2025-03-05T10:00')] }, version: 1 };
    const own = { start: '2025-03-05T12:00:00+09:00', counselorId: 'c-brown', date: '2025-03-05' };
    expect(monthSlots(doc, '2025-03-01', own, CLINIC_ZONE, null)?.map((s) => s.time)).toEqual(['10:00', '12:00']);
    expect(monthSlots(doc, '2025-04-01', own, CLINIC_ZONE, null)?.map((s) => s.time)).toEqual(['10:00']);
    expect(monthSlots(undefined, '2025-03-01', own, CLINIC_ZONE, null)).toBeNull();
  });

  it("reads a refused hold's alternatives, and nothing from a refusal without them", () => {
    const alternatives = refusalAlternatives({ alternatives: [slot('2025-03-06T09:00')] }, CLINIC_ZONE, null);
    expect(alternatives?.map((s) => [s.date, s.time])).toEqual([['2025-03-06', '09:00']]);
    expect(refusalAlternatives({ reason: 'holdLimit' }, CLINIC_ZONE, null)).toBeNull();
    expect(refusalAlternatives(undefined, CLINIC_ZONE, null)).toBeNull();
  });
});

describe('what a new month says of the chosen time', () => {
  it('nothing while it is offered; the counselor, when only they are gone; taken, with the nearest times', () => {
    expect(takenNotice(march, { date: '2025-03-05', at: at('2025-03-05T10:00'), counselorId: 'c-sato' }, CLINIC_ZONE)).toBeNull();
    expect(takenNotice(march, { date: '2025-03-05', at: at('2025-03-05T10:00'), counselorId: 'c-tanaka' }, CLINIC_ZONE)).toEqual({
      reason: 'counselor',
      date: '2025-03-05',
      time: '10:00',
      alternatives: [],
    });
    const taken = takenNotice(march, { date: '2025-03-05', at: at('2025-03-05T12:00'), counselorId: 'any' }, CLINIC_ZONE);
    expect(taken?.reason).toBe('taken');
    expect(taken?.time).toBe('12:00');
    expect(taken?.alternatives.map((s) => s.time)).toEqual(['11:00', '10:00', '09:00']);
  });
});
