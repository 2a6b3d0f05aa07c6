import { describe, expect, it } from 'vitest';
import { gridKeyTarget } from './CalendarGrid';

describe('the calendar grid keys', () => {
  it('move by day and week, across months', () => {
    expect(gridKeyTarget('ArrowLeft', '2025-03-01')).toBe('2025-02-28');
    expect(gridKeyTarget('ArrowRight', '2025-03-31')).toBe('2025-04-01');
    expect(gridKeyTarget('ArrowUp', '2025-03-05')).toBe('2025-02-26');
    expect(gridKeyTarget('ArrowDown', '2025-03-28')).toBe('2025-04-04');
  });

  it('Home and End go to the week ends (Sunday first)', () => {
    // 2025-03-05 is a Wednesday.
    expect(gridKeyTarget('Home', '2025-03-05')).toBe('2025-03-02');
    expect(gridKeyTarget('End', '2025-03-05')).toBe('2025-03-08');
    expect(gridKeyTarget('Home', '2025-03-01')).toBe('2025-02-23');
  });

  it('PageUp and PageDown keep the day of the month, at most the 28th', () => {
    expect(gridKeyTarget('PageDown', '2025-01-15')).toBe('2025-02-15');
    expect(gridKeyTarget('PageDown', '2025-01-31')).toBe('2025-02-28');
    expect(gridKeyTarget('PageUp', '2025-01-10')).toBe('2024-12-10');
  });

  it('leaves other keys alone', () => {
    expect(gridKeyTarget('Enter', '2025-03-05')).toBeNull();
    expect(gridKeyTarget('Escape', '2025-03-05')).toBeNull();
  });
});
