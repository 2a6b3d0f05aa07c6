/**
 * The weekly windows of a schedule, pure (docs/protocol.md "Clinic administration",
 * "Schedules"): wall times "HH:MM" in the clinic's zone, weekday 0 = Monday. The grid and the
 * exact-times form edit a list of these; the server alone decides what is allowed (its field
 * errors are shown next to the window they name), so nothing here re-types its limits. What
 * the grid does by itself is only what follows from "a day's windows never overlap or touch":
 * a new window that meets others becomes one window with them.
 */

export interface WeeklyWindow {
  weekday: number;
  start: string;
  end: string;
}

/** The grid's cell: 30 minutes. */
export const CELL_MINUTES = 30;
/** The rows the grid always shows (06:00-22:00), widened to fit any window outside them. */
export const GRID_FROM = 6 * 60;
export const GRID_TO = 22 * 60;
export const DAY_MINUTES = 24 * 60;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "09:30" -> 570; null for anything that is not a wall time (24:00 is the end of a day). */
export function minutesOf(time: string): number | null {
  if (time === '24:00') return DAY_MINUTES;
  const match = HHMM.exec(time);
  return match === null ? null : Number(match[1]) * 60 + Number(match[2]);
}

/** 570 -> "09:30". */
export function timeOf(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

const byDayAndStart = (a: WeeklyWindow, b: WeeklyWindow) => a.weekday - b.weekday || a.start.localeCompare(b.start);

/** The windows in the order they are shown and sent: by weekday, then start. */
export function sortWindows(windows: readonly WeeklyWindow[]): WeeklyWindow[] {
  return [...windows].sort(byDayAndStart);
}

/**
 * Adds a window to a day; windows of that day that overlap or touch it are merged into it.
 * A window that is not a valid span (unreadable times, end not after start) is not added.
 */
export function addWindow(windows: readonly WeeklyWindow[], added: WeeklyWindow): WeeklyWindow[] {
  let start = minutesOf(added.start);
  let end = minutesOf(added.end);
  if (start === null || end === null || end <= start) return [...windows];
  const kept: WeeklyWindow[] = [];
  for (const window of windows) {
    const from = minutesOf(window.start);
    const to = minutesOf(window.end);
    if (window.weekday === added.weekday && from !== null && to !== null && from <= end && to >= start) {
      start = Math.min(start, from);
      end = Math.max(end, to);
    } else {
      kept.push(window);
    }
  }
  return sortWindows([...kept, { weekday: added.weekday, start: timeOf(start), end: timeOf(end) }]);
}

export function removeWindow(windows: readonly WeeklyWindow[], index: number): WeeklyWindow[] {
  return windows.filter((_, at) => at !== index);
}

/** Replaces one window's start or end (the exact-times form); the order stays as it was. */
export function changeWindow(windows: readonly WeeklyWindow[], index: number, change: Partial<WeeklyWindow>): WeeklyWindow[] {
  return windows.map((window, at) => (at === index ? { ...window, ...change } : window));
}

/** The index of the window of `weekday` that covers the minute `minute`, -1 if none. */
export function windowAt(windows: readonly WeeklyWindow[], weekday: number, minute: number): number {
  return windows.findIndex((window) => {
    const from = minutesOf(window.start);
    const to = minutesOf(window.end);
    return window.weekday === weekday && from !== null && to !== null && from <= minute && minute < to;
  });
}

/** The starts (minutes) of the grid's rows: 06:00-22:00, widened to whole cells around every window. */
export function gridRows(windows: readonly WeeklyWindow[]): number[] {
  let from = GRID_FROM;
  let to = GRID_TO;
  for (const window of windows) {
    const start = minutesOf(window.start);
    const end = minutesOf(window.end);
    if (start !== null) from = Math.min(from, Math.floor(start / CELL_MINUTES) * CELL_MINUTES);
    if (end !== null) to = Math.max(to, Math.ceil(end / CELL_MINUTES) * CELL_MINUTES);
  }
  const rows: number[] = [];
  for (let minute = from; minute < to; minute += CELL_MINUTES) rows.push(minute);
  return rows;
}

/** A selection of cells in one day column: rows `anchor`..`focus` (either order). */
export interface Selection {
  weekday: number;
  anchor: number;
  focus: number;
}

/** The window a selection stands for, given the grid's rows. */
export function selectionWindow(selection: Selection, rows: readonly number[]): WeeklyWindow | null {
  const first = rows[Math.min(selection.anchor, selection.focus)];
  const last = rows[Math.max(selection.anchor, selection.focus)];
  if (first === undefined || last === undefined) return null;
  return { weekday: selection.weekday, start: timeOf(first), end: timeOf(last + CELL_MINUTES) };
}
