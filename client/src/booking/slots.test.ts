import { afterEach, describe, expect, it, vi } from 'vitest';
import { monthGrid } from './calendar';
import { fullDay } from './format';
import {
  findSlot,
  instantOf,
  isOffered,
  nearestSlots,
  parseVacancies,
  placeSlots,
  slotsByDay,
  withOwnHold,
  zonedIso,
  zonedMoment,
} from './slots';
import { simulateBrowserZone, slot } from '../test/booking';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('parseVacancies', () => {
  it('reads the timezone and the well-formed slots, leaving the rest out', () => {
    const read = parseVacancies({
      timezone: 'Asia/Tokyo',
      slots: [
        { start: '2025-03-05T10:00:00+09:00', end: '2025-03-05T11:00:00+09:00', counselorIds: ['c-sato'] },
        { start: 'not a time', counselorIds: ['c-sato'] },
        { start: '2025-03-05T11:00:00+09:00', counselorIds: [] },
        'junk',
      ],
    });
    expect(read.timezone).toBe('Asia/Tokyo');
    expect(read.slots.map((s) => s.start)).toEqual(['2025-03-05T10:00:00+09:00']);
    expect(parseVacancies(null)).toEqual({ timezone: null, slots: [] });
    expect(parseVacancies({ timezone: 'Mars/Olympus', slots: 'x' })).toEqual({ timezone: null, slots: [] });
  });
});

describe('clinic days and times', () => {
  it("places a slot on the clinic's day, not the UTC one", () => {
    // 00:30 in Tokyo on 6 March is still 5 March in UTC (and in Los Angeles).
    expect(zonedMoment('2025-03-06T00:30:00+09:00', 'Asia/Tokyo')).toEqual({ date: '2025-03-06', time: '00:30' });
    expect(zonedMoment('2025-03-05T15:30:00Z', 'Asia/Tokyo')).toEqual({ date: '2025-03-06', time: '00:30' });
    expect(zonedMoment('nonsense', 'Asia/Tokyo')).toBeNull();
  });

  it("keeps clinic days whatever the browser's zone (a browser in Los Angeles, by date math)", () => {
    simulateBrowserZone('America/Los_Angeles', -8);
    // The simulation is in force: local getters and zone-less formats answer in Los Angeles.
    const instant = new Date('2025-03-05T15:30:00Z');
    expect(instant.getDate()).toBe(5);
    expect(instant.getHours()).toBe(7);
    expect(new Intl.DateTimeFormat('en-US', { day: 'numeric' }).format(instant)).toBe('5');

    const placed = placeSlots([slot('2025-03-06T00:30'), slot('2025-03-05T23:00')], 'Asia/Tokyo');
    expect(placed.map((s) => [s.date, s.time])).toEqual([
      ['2025-03-05', '23:00'],
      ['2025-03-06', '00:30'],
    ]);
    expect([...slotsByDay(placed).keys()]).toEqual(['2025-03-05', '2025-03-06']);
    // The grid and the day names are dates of the clinic too.
    expect(monthGrid('2025-03-01')[0]?.[6]).toBe('2025-03-01');
    expect(fullDay('2025-03-06', 'en')).toBe('Thursday, March 6, 2025');
    expect(zonedIso('2025-03-06', '00:30', 'Asia/Tokyo')).toBe('2025-03-06T00:30:00+09:00');
  });

  it('writes a clinic wall time with its offset, across daylight saving changes too', () => {
    expect(zonedIso('2025-03-05', '10:00', 'Asia/Tokyo')).toBe('2025-03-05T10:00:00+09:00');
    expect(zonedIso('2025-01-15', '09:00', 'America/New_York')).toBe('2025-01-15T09:00:00-05:00');
    expect(zonedIso('2025-07-15', '09:00', 'America/New_York')).toBe('2025-07-15T09:00:00-04:00');
    expect(zonedIso('2025-07-15', '09:00', 'Asia/Kolkata')).toBe('2025-07-15T09:00:00+05:30');
    expect(instantOf(zonedIso('2025-03-05', '10:00', 'Asia/Tokyo') ?? '')).toBe(Date.parse('2025-03-05T01:00:00Z'));
    expect(zonedIso('2025-3-5', '10:00', 'Asia/Tokyo')).toBeNull();
  });
});

describe('offered slots', () => {
  const slots = [slot('2025-03-05T10:00', ['c-sato']), slot('2025-03-05T11:00', ['c-tanaka']), slot('2025-03-06T09:00')];
  const at = (wall: string) => Date.parse(`${wall}:00+09:00`);

  it('finds a slot by its instant, whatever its text', () => {
    expect(findSlot(slots, Date.parse('2025-03-05T01:00:00Z'))?.counselorIds).toEqual(['c-sato']);
    expect(isOffered(slots, at('2025-03-05T10:00'), 'any')).toBe(true);
    expect(isOffered(slots, at('2025-03-05T10:00'), 'c-sato')).toBe(true);
    expect(isOffered(slots, at('2025-03-05T10:00'), 'c-tanaka')).toBe(false);
    expect(isOffered(slots, at('2025-03-05T12:00'), 'any')).toBe(false);
  });

  it('offers the nearest other slots, earlier first on a tie', () => {
    const near = nearestSlots(
      [...slots, slot('2025-03-05T09:00'), slot('2025-03-05T12:00')],
      at('2025-03-05T10:30'),
      3,
    );
    expect(near.map((s) => s.start)).toEqual([
      '2025-03-05T10:00:00+09:00',
      '2025-03-05T11:00:00+09:00',
      '2025-03-05T09:00:00+09:00',
    ]);
    expect(nearestSlots(slots, at('2025-03-05T10:00')).map((s) => s.start)).not.toContain('2025-03-05T10:00:00+09:00');
  });

  it("puts the person's own hold back into the shared month", () => {
    const own = { start: '2025-03-05T12:00:00+09:00', counselorId: 'c-brown' };
    expect(withOwnHold(slots, own)).toHaveLength(4);
    const joined = withOwnHold(slots, { start: '2025-03-05T10:00:00+09:00', counselorId: 'c-brown' });
    expect(findSlot(joined, at('2025-03-05T10:00'))?.counselorIds).toEqual(['c-sato', 'c-brown']);
    expect(withOwnHold(slots, { start: '2025-03-05T10:00:00+09:00', counselorId: 'c-sato' })).toEqual(slots);
    expect(withOwnHold(slots, null)).toEqual(slots);
  });
});
