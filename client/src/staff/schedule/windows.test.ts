import { describe, expect, it } from 'vitest';
import { addWindow, changeWindow, gridRows, minutesOf, removeWindow, selectionWindow, timeOf, windowAt, type WeeklyWindow } from './windows';

const mon = (start: string, end: string): WeeklyWindow => ({ weekday: 0, start, end });
const tue = (start: string, end: string): WeeklyWindow => ({ weekday: 1, start, end });

describe('windows', () => {
  it('reads and writes wall times', () => {
    expect(minutesOf('09:30')).toBe(570);
    expect(minutesOf('24:00')).toBe(1440);
    expect(minutesOf('9:30')).toBeNull();
    expect(minutesOf('24:30')).toBeNull();
    expect(timeOf(570)).toBe('09:30');
  });

  it('adds a window in day and start order', () => {
    expect(addWindow([tue('09:00', '12:00')], mon('13:00', '15:00'))).toEqual([mon('13:00', '15:00'), tue('09:00', '12:00')]);
    expect(addWindow([mon('13:00', '15:00')], mon('09:00', '10:00'))).toEqual([mon('09:00', '10:00'), mon('13:00', '15:00')]);
  });

  it('merges a new window with the windows it overlaps or touches, on its day only', () => {
    const windows = [mon('09:00', '12:00'), mon('14:00', '16:00'), tue('11:00', '13:00')];
    expect(addWindow(windows, mon('11:00', '14:00'))).toEqual([mon('09:00', '16:00'), tue('11:00', '13:00')]);
    expect(addWindow(windows, mon('12:00', '13:00'))).toEqual([mon('09:00', '13:00'), mon('14:00', '16:00'), tue('11:00', '13:00')]);
    expect(addWindow(windows, mon('10:00', '11:00'))).toEqual(windows);
  });

  it('adds nothing for a span that is not one', () => {
    expect(addWindow([], mon('12:00', '12:00'))).toEqual([]);
    expect(addWindow([], mon('13:00', '12:00'))).toEqual([]);
    expect(addWindow([], mon('', '12:00'))).toEqual([]);
  });

  it('removes and changes one window by index, keeping the order', () => {
    const windows = [mon('09:00', '12:00'), mon('14:00', '16:00')];
    expect(removeWindow(windows, 0)).toEqual([mon('14:00', '16:00')]);
    expect(changeWindow(windows, 1, { end: '17:00' })).toEqual([mon('09:00', '12:00'), mon('14:00', '17:00')]);
  });

  it('finds the window covering a minute, its end excluded', () => {
    const windows = [mon('09:00', '12:00'), tue('09:00', '12:00')];
    expect(windowAt(windows, 1, 9 * 60)).toBe(1);
    expect(windowAt(windows, 0, 12 * 60 - 1)).toBe(0);
    expect(windowAt(windows, 0, 12 * 60)).toBe(-1);
  });

  it('shows 06:00-22:00 in 30-minute rows, widened to whole cells around any window', () => {
    const rows = gridRows([]);
    expect(rows[0]).toBe(360);
    expect(rows.at(-1)).toBe(21 * 60 + 30);
    expect(rows).toHaveLength(32);
    const wide = gridRows([mon('05:10', '06:30'), tue('21:00', '23:05')]);
    expect(wide[0]).toBe(5 * 60);
    expect(wide.at(-1)).toBe(23 * 60);
  });

  it('turns a selection of cells (either direction) into a window', () => {
    const rows = gridRows([]);
    expect(selectionWindow({ weekday: 2, anchor: 6, focus: 8 }, rows)).toEqual({ weekday: 2, start: '09:00', end: '10:30' });
    expect(selectionWindow({ weekday: 2, anchor: 8, focus: 6 }, rows)).toEqual({ weekday: 2, start: '09:00', end: '10:30' });
    expect(selectionWindow({ weekday: 2, anchor: 0, focus: 99 }, rows)).toBeNull();
  });
});
