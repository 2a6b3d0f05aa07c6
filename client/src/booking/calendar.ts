/**
 * The booking calendar's rules, pure: which months may be shown (today's month to the end of
 * the service's booking horizon), the pregnancy window of prenatal services, and what each
 * day of the 6 x 7 grid is. Dates are YYYY-MM-DD days of the clinic's time zone.
 */
import { addDays, addMonths, isIsoDate, monthGrid, monthOf } from '../intake/dates';
import type { PlacedSlot } from './slots';

export { addMonths, monthGrid, monthOf };

/** Days of a full-term pregnancy: the due date is conception base + 280 days (the server's rule). */
export const DAYS_PER_PREGNANCY = 280;

export interface PregnancyWindow {
  /** First and last day (inclusive) with a gestational age within the service's weeks. */
  first: string;
  last: string;
  minWeeks: number;
  maxWeeks: number;
  edd: string;
}

/**
 * The days on which the gestational age is within [minWeeks, maxWeeks], from the expected
 * due date: as `vacancies-read` and `appointment-hold` apply it on the server.
 */
export function pregnancyWindow(edd: string, minWeeks: number, maxWeeks: number): PregnancyWindow | null {
  if (!isIsoDate(edd) || !Number.isInteger(minWeeks) || !Number.isInteger(maxWeeks) || maxWeeks < minWeeks) return null;
  const base = addDays(edd, -DAYS_PER_PREGNANCY);
  return { first: addDays(base, minWeeks * 7), last: addDays(base, maxWeeks * 7), minWeeks, maxWeeks, edd };
}

/** `gestationWeeks` of service-read, when it is well formed. */
export function gestationWeeksOf(service: unknown): { min: number; max: number } | null {
  if (typeof service !== 'object' || service === null) return null;
  const weeks = (service as { gestationWeeks?: unknown }).gestationWeeks;
  if (typeof weeks !== 'object' || weeks === null) return null;
  const { min, max } = weeks as { min?: unknown; max?: unknown };
  return typeof min === 'number' && typeof max === 'number' ? { min, max } : null;
}

/** Months that may be shown: from today's month to the month of the horizon's last day. */
export function monthRange(today: string, horizonDays: number): { first: string; last: string } {
  const days = Number.isFinite(horizonDays) && horizonDays > 0 ? Math.floor(horizonDays) : 0;
  return { first: monthOf(today), last: monthOf(addDays(today, days)) };
}

/** A month start clamped into the range. */
export function clampMonth(month: string, range: { first: string; last: string }): string {
  if (month < range.first) return range.first;
  if (month > range.last) return range.last;
  return month;
}

/** "2025-03-01" -> "2025-03", the month document's last path segment. */
export function monthKey(monthStart: string): string {
  return monthStart.slice(0, 7);
}

/**
 * What a day of the grid is:
 * - `outside`: a day of the previous or next month, shown greyed to fill the 6 week rows;
 * - `available`: at least one free slot;
 * - `outsideWindow`: a day the pregnancy window rules out (prenatal services);
 * - `unavailable`: no free time (past, too soon, beyond the horizon, or fully booked);
 * - `pending`: the month's free times are still being looked up (`loading`), so the day
 *   cannot be chosen yet; days known to be unavailable (past, outside the window) say so
 *   at once.
 */
export type DayStatus = 'outside' | 'available' | 'outsideWindow' | 'unavailable' | 'pending';

/** What a day's status depends on, besides its month: the same for every day of the month. */
export interface DayContext {
  today: string;
  /** The month's free slots by clinic day. */
  byDay: ReadonlyMap<string, readonly PlacedSlot[]>;
  window: PregnancyWindow | null;
  /** The month's free slots are still being looked up. */
  loading?: boolean;
}

export function dayStatus(day: string, month: string, context: DayContext): DayStatus {
  if (monthOf(day) !== month) return 'outside';
  if (day < context.today) return 'unavailable';
  if (context.window && (day < context.window.first || day > context.window.last)) return 'outsideWindow';
  if (context.loading === true) return 'pending';
  return (context.byDay.get(day)?.length ?? 0) > 0 ? 'available' : 'unavailable';
}

/** Slots within the pregnancy window (all of them when there is none). */
export function insideWindow<T extends { date: string }>(slots: readonly T[], window: PregnancyWindow | null): T[] {
  return window ? slots.filter((slot) => slot.date >= window.first && slot.date <= window.last) : [...slots];
}

/** Days from `first` to `last` inclusive, for `vacancies-read`'s range (at most 62 days). */
export const MAX_READ_DAYS = 62;

/** The `from`/`to` of the first `vacancies-read`: today to the horizon, at most 62 days. */
export function readRange(today: string, horizonDays: number): { from: string; to: string } {
  const days = Number.isFinite(horizonDays) && horizonDays > 0 ? Math.min(Math.floor(horizonDays), MAX_READ_DAYS) : MAX_READ_DAYS;
  return { from: today, to: addDays(today, days) };
}
