import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addDays,
  addMonths,
  dateBoundsOf,
  isDisabledDate,
  isIsoDate,
  monthGrid,
  parseTypedDate,
  pickDate,
  resolveDateBound,
  todayIn,
} from './dates';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('today in the clinic time zone', () => {
  it('is the Tokyo date even when the browser is in another zone', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    // 20:00 UTC on 4 March: still the 4th in Los Angeles (and UTC), already the 5th in Tokyo.
    const now = new Date('2025-03-04T20:00:00Z');
    expect([now.getDate(), now.getHours()]).toEqual([4, 12]); // what the browser itself would say
    expect(todayIn('Asia/Tokyo', now)).toBe('2025-03-05');
    expect(todayIn('America/Los_Angeles', now)).toBe('2025-03-04');
    expect(todayIn('UTC', now)).toBe('2025-03-04');
  });

  it('resolves "today" and "+300d" from the clinic date', () => {
    const now = new Date('2025-03-04T20:00:00Z');
    const today = todayIn('Asia/Tokyo', now);
    expect(resolveDateBound('today', today)).toBe('2025-03-05');
    expect(resolveDateBound('+300d', today)).toBe('2025-12-30');
    expect(resolveDateBound('-7d', today)).toBe('2025-02-26');
    expect(resolveDateBound('1990-01-01', today)).toBe('1990-01-01');
    expect(() => resolveDateBound('tomorrow', today)).toThrow();
    expect(dateBoundsOf({ after: 'today', before: '+300d' }, today)).toEqual({ after: '2025-03-05', before: '2025-12-30' });
  });

  it('counts calendar days across month ends, leap days and daylight saving changes', () => {
    vi.stubEnv('TZ', 'Europe/Berlin');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-03-29', 2)).toBe('2025-03-31'); // DST starts on the 30th in Berlin
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addMonths('2025-12-01', 1)).toBe('2026-01-01');
    expect(addMonths('2025-01-01', -1)).toBe('2024-12-01');
  });
});

describe('typed dates', () => {
  it.each([
    ['2025-03-05', '2025-03-05'],
    ['2025/3/5', '2025-03-05'],
    ['2025.03.05', '2025-03-05'],
    ['2025年3月5日', '2025-03-05'],
    ['２０２５／０３／０５', '2025-03-05'],
    [' 2025-03-05 ', '2025-03-05'],
    ['2025-02-29', null],
    ['05/03/2025', '2025-05-03'], // year last: month/day/year
    ['31/12/2025', null],
    ['March 5, 2025', null],
    ['', null],
  ])('%j -> %s', (typed, iso) => {
    expect(parseTypedDate(typed)).toBe(iso);
  });

  it('does not parse a string over 1000 characters at all', () => {
    const padded = `2025-03-05${' '.repeat(991)}`;
    expect(padded.length).toBe(1001);
    expect(parseTypedDate(padded)).toBeNull();
    expect(parseTypedDate(`2025-03-05${' '.repeat(990)}`)).toBe('2025-03-05'); // 1000: parsed
    expect(isIsoDate('2'.repeat(1001))).toBe(false);
  });
});

describe('the picker', () => {
  const bounds = { after: '2025-03-05', before: '2025-03-20' };

  it('disables dates outside the bounds (after is strict, before inclusive)', () => {
    expect(isDisabledDate('2025-03-05', bounds)).toBe(true);
    expect(isDisabledDate('2025-03-06', bounds)).toBe(false);
    expect(isDisabledDate('2025-03-20', bounds)).toBe(false);
    expect(isDisabledDate('2025-03-21', bounds)).toBe(true);
  });

  it('refuses a disabled date and keeps the previous value', () => {
    expect(pickDate('2025-03-21', '2025-03-10', bounds)).toBe('2025-03-10');
    expect(pickDate('2025-03-05', '', bounds)).toBe('');
    expect(pickDate('2025-03-11', '2025-03-10', bounds)).toBe('2025-03-11');
  });

  it('shows 6 rows of 7 days starting on the Sunday before the first', () => {
    const grid = monthGrid('2025-03-01'); // a Saturday
    expect(grid).toHaveLength(6);
    expect(grid.every((row) => row.length === 7)).toBe(true);
    expect(grid[0]?.[0]).toBe('2025-02-23');
    expect(grid[0]?.[6]).toBe('2025-03-01');
    expect(grid[5]?.[6]).toBe('2025-04-05');
  });
});
