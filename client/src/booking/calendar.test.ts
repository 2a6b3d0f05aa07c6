import { describe, expect, it } from 'vitest';
import { clampMonth, dayStatus, gestationWeeksOf, monthGrid, monthRange, pregnancyWindow, readRange } from './calendar';
import { placeSlots, slotsByDay } from './slots';
import { slot } from '../test/booking';

describe('the month grid', () => {
  it('has 6 week rows of 7 days, Sunday first, around the month', () => {
    const grid = monthGrid('2025-03-01');
    expect(grid).toHaveLength(6);
    for (const week of grid) expect(week).toHaveLength(7);
    expect(grid[0]?.[0]).toBe('2025-02-23'); // the Sunday before Saturday 1 March
    expect(grid[5]?.[6]).toBe('2025-04-05');
  });

  it('says what each day is', () => {
    const byDay = slotsByDay(placeSlots([slot('2025-03-05T10:00'), slot('2025-03-03T10:00')], 'Asia/Tokyo'));
    const context = { today: '2025-03-04', byDay, window: null };
    expect(dayStatus('2025-03-05', '2025-03-01', context)).toBe('available');
    expect(dayStatus('2025-03-06', '2025-03-01', context)).toBe('unavailable');
    expect(dayStatus('2025-03-03', '2025-03-01', context)).toBe('unavailable'); // before today
    expect(dayStatus('2025-02-28', '2025-03-01', context)).toBe('outside');
    const window = pregnancyWindow('2025-09-01', 10, 22);
    expect(dayStatus('2025-03-05', '2025-03-01', { ...context, window })).toBe('available');
    const later = slotsByDay(placeSlots([slot('2025-05-07T10:00')], 'Asia/Tokyo'));
    expect(dayStatus('2025-05-07', '2025-05-01', { today: '2025-03-04', byDay: later, window })).toBe('outsideWindow');
  });

  it('keeps the days of a month still loading unchoosable, except those known already', () => {
    const loading = { today: '2025-03-04', byDay: new Map(), window: pregnancyWindow('2025-09-01', 10, 22), loading: true };
    expect(dayStatus('2025-03-05', '2025-03-01', loading)).toBe('pending');
    expect(dayStatus('2025-03-03', '2025-03-01', loading)).toBe('unavailable'); // before today
    expect(dayStatus('2025-04-30', '2025-04-01', loading)).toBe('outsideWindow');
    expect(dayStatus('2025-02-28', '2025-03-01', loading)).toBe('outside');
  });
});

describe('the pregnancy window', () => {
  it('runs from week min to week max counted back from the due date (280 days)', () => {
    // Due 1 September 2025: day 0 of the pregnancy is 25 November 2024.
    expect(pregnancyWindow('2025-09-01', 10, 22)).toEqual({
      first: '2025-02-03',
      last: '2025-04-28',
      minWeeks: 10,
      maxWeeks: 22,
      edd: '2025-09-01',
    });
    expect(pregnancyWindow('2025-02-30', 10, 22)).toBeNull();
    expect(pregnancyWindow('2025-09-01', 22, 10)).toBeNull();
  });

  it("reads the service's gestationWeeks", () => {
    expect(gestationWeeksOf({ gestationWeeks: { min: 10, max: 22 } })).toEqual({ min: 10, max: 22 });
    expect(gestationWeeksOf({ gestationWeeks: null })).toBeNull();
    expect(gestationWeeksOf(null)).toBeNull();
  });
});

describe('months and reads', () => {
  it("allows today's month to the horizon's month", () => {
    expect(monthRange('2025-03-20', 60)).toEqual({ first: '2025-03-01', last: '2025-05-01' });
    expect(clampMonth('2025-07-01', { first: '2025-03-01', last: '2025-05-01' })).toBe('2025-05-01');
    expect(clampMonth('2025-01-01', { first: '2025-03-01', last: '2025-05-01' })).toBe('2025-03-01');
  });

  it('asks vacancies-read for at most 62 days', () => {
    expect(readRange('2025-03-20', 60)).toEqual({ from: '2025-03-20', to: '2025-05-19' });
    expect(readRange('2025-03-20', 400)).toEqual({ from: '2025-03-20', to: '2025-05-21' });
  });
});
