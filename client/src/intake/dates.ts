/**
 * Calendar dates of the questionnaire: date-only ISO strings ("2025-03-05") on the wire, bounds
 * relative to today in the clinic's time zone, typed input, and the picker's month grid.
 * Pure functions; "today" is always passed in or computed for an explicit IANA zone.
 */
import { definition } from './definition';
import { toHalfWidth } from '../validation/halfWidth';

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

const YEAR_FIRST = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
/** Year last is always month/day/year: US English writes it so, Japanese never writes the year last. */
const YEAR_LAST = /^(\d{1,2})\s*\/\s*(\d{1,2})\s*\/\s*(\d{4})$/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ERA = new RegExp(
  `^(${definition.eras.map((era) => escapeRegExp(era.name)).join('|')}|[${definition.eras.map((era) => era.letter).join('')}])` +
    '\\s*(\\d{1,2}|元)\\s*[-/.年]\\s*(\\d{1,2})\\s*[-/.月]\\s*(\\d{1,2})\\s*日?$',
  'i',
);

function isoOf(year: number, month: number, day: number): string | null {
  const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/** An era date (平成2年4月1日, H2.4.1) as ISO, or null when the day is not within that era. */
function eraDate(mark: string, eraYear: string, month: number, day: number): string | null {
  const index = definition.eras.findIndex((era) => era.name === mark || era.letter === mark.toUpperCase());
  const era = definition.eras[index];
  if (era === undefined) return null;
  const year = eraYear === '元' ? 1 : Number(eraYear);
  if (year < 1) return null;
  const iso = isoOf(Number(era.start.slice(0, 4)) + year - 1, month, day);
  const next = index > 0 ? definition.eras[index - 1]?.start : undefined;
  if (iso === null || iso < era.start || (next !== undefined && iso >= next)) return null;
  return iso;
}

/**
 * A typed date -> ISO "YYYY-MM-DD", or null when it is not a date. The server reads the same
 * forms the same way (realtime/intake/typed_dates.py; shared cases: tests/intake_format_cases.json),
 * in half-width or full-width digits: 1990-04-01, 1990/4/1, 1990.4.1, 1990年4月1日, 19900401;
 * 04/01/1990 (month/day/year); era dates 平成2年4月1日, 平成元年4月1日, H2.4.1, R6/1/5. Strings
 * longer than the definition's maxDateStringLength (1000) are not parsed at all.
 */
export function parseTypedDate(text: string): string | null {
  if (text.length > definition.maxDateStringLength) return null;
  const typed = toHalfWidth(text).trim();
  const first = YEAR_FIRST.exec(typed) ?? COMPACT.exec(typed);
  if (first) return isoOf(Number(first[1]), Number(first[2]), Number(first[3]));
  const last = YEAR_LAST.exec(typed);
  if (last) return isoOf(Number(last[3]), Number(last[1]), Number(last[2]));
  const era = ERA.exec(typed);
  if (era) return eraDate(era[1] ?? '', era[2] ?? '', Number(era[3]), Number(era[4]));
  return null;
}

/** The same month and day `years` earlier (29 February as the 28th in a common year). */
export function yearsBefore(today: string, years: number): string {
  const year = String(Number(today.slice(0, 4)) - years).padStart(4, '0');
  const candidate = `${year}${today.slice(4)}`;
  return isIsoDate(candidate) ? candidate : `${year}-02-28`;
}

/**
 * A birth date's problem (definition `birthDateAges`): older than the maximum age, or younger
 * than the minimum, on the clinic's today; null when the age is possible.
 */
export function ageIssue(iso: string, today: string): 'ageTooOld' | 'ageTooYoung' | null {
  const { min, max } = definition.birthDateAges;
  if (!(iso > yearsBefore(today, max + 1))) return 'ageTooOld';
  if (!(iso <= yearsBefore(today, min))) return 'ageTooYoung';
  return null;
}

/** What the calendar offers for a field: its bounds, narrowed to the possible ages of a birth date. */
export function pickerBoundsOf(field: { after?: string; before?: string; birthDate?: boolean }, today: string): DateBounds {
  const bounds = dateBoundsOf(field, today);
  if (field.birthDate !== true) return bounds;
  const oldest = yearsBefore(today, definition.birthDateAges.max + 1);
  const youngest = yearsBefore(today, definition.birthDateAges.min);
  return {
    after: bounds.after !== undefined && bounds.after > oldest ? bounds.after : oldest,
    before: bounds.before !== undefined && bounds.before < youngest ? bounds.before : youngest,
  };
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
