/**
 * The schedule screen's wire shapes, pure (docs/protocol.md "Clinic administration",
 * "Schedules"): `schedule-read`'s reply, `schedule-update`'s and `holidays-update`'s input and
 * reply, the conflicts they list, and the refusals: field errors (`details.fields`, dotted
 * paths such as `weekly.3.end`) and a stale version (`ABORTED` with `details.current`).
 */
import { isIsoDate } from '../../intake/dates';
import { isRecord } from '../../isRecord';
import { FunctionsError } from '../../realtime';
import { sortWindows, type WeeklyWindow } from './windows';

export type Language = 'ja' | 'en';
export const LANGUAGES: readonly Language[] = ['ja', 'en'];

export interface ScheduleException {
  date: string;
  kind: 'off' | 'extra';
  start?: string;
  end?: string;
}

export interface Schedule {
  counselorId: string;
  name: { ja: string; en: string };
  languages: Language[];
  version: number;
  weekly: WeeklyWindow[];
  exceptions: ScheduleException[];
}

export interface Holiday {
  date: string;
  name: string;
}

export interface Holidays {
  version: number;
  days: Holiday[];
}

export interface ScheduleRead {
  timezone: string;
  counselors: Schedule[];
  holidays: Holidays | null;
}

/** A booking the new hours no longer cover (it stays booked). */
export interface Conflict {
  appointmentId: string;
  start: string;
  end: string;
  counselorId: string;
  /** The booking's service: its free times are the ones offered to move it to. */
  serviceId: string;
  status: string;
  name: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function parseWindow(value: unknown): WeeklyWindow | null {
  if (!isRecord(value) || typeof value.weekday !== 'number' || typeof value.start !== 'string' || typeof value.end !== 'string') return null;
  return { weekday: value.weekday, start: value.start, end: value.end };
}

function parseException(value: unknown): ScheduleException | null {
  if (!isRecord(value) || !isIsoDate(value.date) || (value.kind !== 'off' && value.kind !== 'extra')) return null;
  if (value.kind === 'off') return { date: value.date, kind: 'off' };
  return { date: value.date, kind: 'extra', start: text(value.start), end: text(value.end) };
}

const isLanguage = (value: unknown): value is Language => value === 'ja' || value === 'en';

/** One `<schedule>`; null when it is not one. */
export function parseSchedule(value: unknown): Schedule | null {
  if (!isRecord(value) || typeof value.counselorId !== 'string' || typeof value.version !== 'number') return null;
  const name = isRecord(value.name) ? value.name : {};
  const list = (items: unknown): unknown[] => (Array.isArray(items) ? items : []);
  return {
    counselorId: value.counselorId,
    name: { ja: text(name.ja), en: text(name.en) },
    languages: list(value.languages).filter(isLanguage),
    version: value.version,
    weekly: sortWindows(list(value.weekly).map(parseWindow).filter((window): window is WeeklyWindow => window !== null)),
    exceptions: sortExceptions(list(value.exceptions).map(parseException).filter((item): item is ScheduleException => item !== null)),
  };
}

export function parseHolidays(value: unknown): Holidays | null {
  if (!isRecord(value) || typeof value.version !== 'number' || !Array.isArray(value.days)) return null;
  return { version: value.version, days: sortHolidays(parseDays(value.days)) };
}

/** `[{"date", "name"}]` (holidays, and `holidays-suggest`'s `days`). */
export function parseDays(value: unknown): Holiday[] {
  if (!Array.isArray(value)) return [];
  return value.filter((day): day is Holiday => isRecord(day) && isIsoDate(day.date) && typeof day.name === 'string');
}

/** `schedule-read`'s reply; null when malformed. */
export function parseScheduleRead(data: unknown): ScheduleRead | null {
  if (!isRecord(data) || typeof data.timezone !== 'string' || !Array.isArray(data.counselors)) return null;
  return {
    timezone: data.timezone,
    counselors: data.counselors.map(parseSchedule).filter((schedule): schedule is Schedule => schedule !== null),
    holidays: parseHolidays(data.holidays),
  };
}

export function parseConflicts(value: unknown): Conflict[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).flatMap((item) =>
    typeof item.appointmentId === 'string' && typeof item.start === 'string'
      ? [{ appointmentId: item.appointmentId, start: item.start, end: text(item.end), counselorId: text(item.counselorId), serviceId: text(item.serviceId), status: text(item.status), name: text(item.name) }]
      : [],
  );
}

export function sortExceptions(exceptions: readonly ScheduleException[]): ScheduleException[] {
  return [...exceptions].sort((a, b) => a.date.localeCompare(b.date) || (a.start ?? '').localeCompare(b.start ?? ''));
}

export function sortHolidays(days: readonly Holiday[]): Holiday[] {
  return [...days].sort((a, b) => a.date.localeCompare(b.date));
}

/** The editable part of a schedule: what `schedule-update` replaces. */
export interface ScheduleDraft {
  weekly: WeeklyWindow[];
  exceptions: ScheduleException[];
  languages: Language[];
}

export const draftOf = (schedule: Schedule): ScheduleDraft => ({
  weekly: schedule.weekly,
  exceptions: schedule.exceptions,
  languages: schedule.languages,
});

/** The draft as the server reads it: an `off` without times, languages in a fixed order. */
export function updateRequest(clinicId: string, schedule: Schedule, draft: ScheduleDraft): Record<string, unknown> {
  return {
    clinicId,
    counselorId: schedule.counselorId,
    version: schedule.version,
    weekly: draft.weekly,
    exceptions: draft.exceptions.map((item) => (item.kind === 'off' ? { date: item.date, kind: 'off' } : item)),
    languages: LANGUAGES.filter((language) => draft.languages.includes(language)),
  };
}

export function sameDraft(a: ScheduleDraft, b: ScheduleDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Adds days not already listed (by date), sorted. */
export function mergeHolidays(days: readonly Holiday[], added: readonly Holiday[]): Holiday[] {
  const known = new Set(days.map((day) => day.date));
  return sortHolidays([...days, ...added.filter((day) => !known.has(day.date))]);
}

/** One refused field: the server's English sentence and its rule (`details.codes`), if any. */
export interface Problem {
  sentence: string;
  code: string | null;
}

/** Refused field paths (`weekly.3.end`) and their problems. */
export type Refused = Record<string, Problem>;

/** The refused fields of an `INVALID_ARGUMENT` (`details.fields`, `details.codes`), empty for any other error. */
export function fieldErrors(error: unknown): Refused {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument' || !isRecord(error.details) || !isRecord(error.details.fields)) return {};
  const codes = isRecord(error.details.codes) ? error.details.codes : {};
  const refused: Refused = {};
  for (const [path, sentence] of Object.entries(error.details.fields)) {
    const code = codes[path];
    refused[path] = { sentence: typeof sentence === 'string' ? sentence : '', code: typeof code === 'string' ? code : null };
  }
  return refused;
}

/** The problems under one path: `weekly.3.end` under `weekly` is "3.end" (the path itself is ""). */
export function errorsUnder(refused: Refused, prefix: string): Refused {
  const found: Refused = {};
  for (const [path, problem] of Object.entries(refused)) {
    if (path === prefix) found[''] = problem;
    else if (path.startsWith(`${prefix}.`)) found[path.slice(prefix.length + 1)] = problem;
  }
  return found;
}

/** The problems of item `index` of a list's problems (`3`, `3.end`...). */
export function itemProblems(refused: Refused, index: number): [string, Problem][] {
  const item = String(index);
  return Object.entries(refused).filter(([path]) => path === item || path.startsWith(`${item}.`));
}

/** A stale version's refusal: the value that is stored now (`details.current`), else null. */
export function staleCurrent(error: unknown): unknown {
  if (!(error instanceof FunctionsError) || error.code !== 'aborted' || !isRecord(error.details) || !('current' in error.details)) return null;
  return error.details.current;
}
