/**
 * Calendar dates of the questionnaire: date-only ISO strings ("2025-03-05") on the wire, bounds
 * relative to today in the clinic's time zone, typed input, and the picker's month grid.
 * Pure functions; "today" is always passed in or computed for an explicit IANA zone.
 */
import { definition } from './definition';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** True for a real calendar date written YYYY-MM-DD (no time, no offset). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > definition.maxDateStringLength) return false;
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year); // years below 100 are not 19xx
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function toUtcMs(iso: string): number {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getTime();
}

function fromUtcMs(ms: number): string {
  const date = new Date(ms);
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

/** `iso` moved by `days` calendar days. */
export function addDays(iso: string, days: number): string {
  return fromUtcMs(toUtcMs(iso) + days * MS_PER_DAY);
}

/** A time zone name `Intl` knows (the clinic's, from its document). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Today's calendar date in an IANA time zone (the clinic's), whatever the browser's zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

const RELATIVE = /^([+-])(\d+)d$/;

/**
 * A bound of the definition ("today", "+300d", "-7d" or an absolute YYYY-MM-DD) as a date,
 * given today's date in the clinic's zone. Anything else is a definition error.
 */
export function resolveDateBound(bound: string, today: string): string {
  if (bound === 'today') return today;
  const relative = RELATIVE.exec(bound);
  if (relative) return addDays(today, (relative[1] === '-' ? -1 : 1) * Number(relative[2]));
  if (isIsoDate(bound)) return bound;
  throw new Error(`intake definition: unknown date bound ${JSON.stringify(bound)}`);
}

export interface DateBounds {
  /** Dates must be strictly after this one (date_after). */
  after?: string;
  /** Dates must be on or before this one (date_before). */
  before?: string;
}

export function dateBoundsOf(field: { after?: string; before?: string }, today: string): DateBounds {
  return {
    ...(field.after === undefined ? {} : { after: resolveDateBound(field.after, today) }),
    ...(field.before === undefined ? {} : { before: resolveDateBound(field.before, today) }),
  };
}

/** Which bound a valid ISO date breaks, if any. ISO strings compare as dates. */
export function dateOutOfBounds(iso: string, bounds: DateBounds): 'dateAfter' | 'dateBefore' | null {
  if (bounds.after !== undefined && !(iso > bounds.after)) return 'dateAfter';
  if (bounds.before !== undefined && !(iso <= bounds.before)) return 'dateBefore';
  return null;
}

/** Full-width digits and separators (Japanese input) as ASCII. */
function halfWidth(text: string): string {
  return text.replace(/[\uFF10-\uFF19\uFF0D\uFF0F\uFF0E]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xfee0));
}

const TYPED_DATE = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/;

/**
 * A typed date -> ISO "YYYY-MM-DD", or null when it is not a date. Accepts 2025-03-05,
 * 2025/3/5, 2025.03.05, 2025年3月5日 (also in full-width digits). Strings longer than the
 * definition's maxDateStringLength (1000) are not parsed at all.
 */
export function parseTypedDate(text: string): string | null {
  if (text.length > definition.maxDateStringLength) return null;
  const match = TYPED_DATE.exec(halfWidth(text.trim()));
  if (!match) return null;
  const iso = `${match[1] ?? ''}-${(match[2] ?? '').padStart(2, '0')}-${(match[3] ?? '').padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/** True when the picker must not offer this day. */
export function isDisabledDate(iso: string, bounds: DateBounds): boolean {
  return dateOutOfBounds(iso, bounds) !== null;
}

/**
 * The picker's selection rule: a selection that overlaps a disabled date is refused and the
 * previous value is kept.
 */
export function pickDate(candidate: string, previous: string, bounds: DateBounds): string {
  return isDisabledDate(candidate, bounds) ? previous : candidate;
}

/** The first of the month of an ISO date ("2025-03-17" -> "2025-03-01"). */
export function monthOf(iso: string): string {
  return `${iso.slice(0, 7)}-01`;
}

/** The first of the month `delta` months away. */
export function addMonths(monthStart: string, delta: number): string {
  const [year, month] = monthStart.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + delta;
  const newYear = Math.floor(index / 12);
  return `${String(newYear).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** Day of the week of an ISO date, 0 = Sunday. */
export function weekday(iso: string): number {
  return new Date(toUtcMs(iso)).getUTCDay();
}

/** The picker shows 6 week rows of 7 days, Sunday first, around the month of `monthStart`. */
export function monthGrid(monthStart: string): string[][] {
  const first = addDays(monthStart, -weekday(monthStart));
  return Array.from({ length: 6 }, (_, row) => Array.from({ length: 7 }, (__, col) => addDays(first, row * 7 + col)));
}
