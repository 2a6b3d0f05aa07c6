/**
 * Free slots of the booking calendar (docs/protocol.md "Booking"): the `vacancies-read` reply and
 * the `vacancies/{clinicId}/{serviceId}/{YYYY-MM}` month documents share the shape
 * `{"timezone", "slots": [{"start", "end", "counselorIds"}]}`.
 *
 * Every day and time is the CLINIC's: a slot belongs to the calendar day of its start in the
 * clinic's time zone, whatever the browser's zone. Pure functions; the zone is always passed in.
 */
import { isTimeZone } from '../intake/dates';
import { isRecord } from '../isRecord';

export interface Slot {
  /** ISO-8601 with an offset, as the server sends it. */
  start: string;
  end: string;
  counselorIds: string[];
}

export interface Vacancies {
  timezone: string | null;
  slots: Slot[];
}

/** A slot placed in the clinic's calendar: its day and wall-clock time there. */
export interface PlacedSlot extends Slot {
  /** YYYY-MM-DD in the clinic's zone. */
  date: string;
  /** HH:MM (24 h) in the clinic's zone. */
  time: string;
  /** The instant (ms since the epoch): slots compare by it, never by their text. */
  at: number;
}

/** Counselor choice meaning "the first free counselor of the slot" (appointment-hold). */
export const ANY_COUNSELOR = 'any';

/** The instant of an ISO string, or NaN. */
export function instantOf(iso: string): number {
  return Date.parse(iso);
}

export function parseSlot(value: unknown): Slot | null {
  if (!isRecord(value)) return null;
  const { start, end, counselorIds } = value;
  if (typeof start !== 'string' || Number.isNaN(instantOf(start))) return null;
  const ids = Array.isArray(counselorIds) ? counselorIds.filter((id): id is string => typeof id === 'string' && id !== '') : [];
  if (ids.length === 0) return null;
  return { start, end: typeof end === 'string' ? end : start, counselorIds: ids };
}

/** A `vacancies-read` reply or a month document's `data`; anything malformed is left out. */
export function parseVacancies(data: unknown): Vacancies {
  if (!isRecord(data)) return { timezone: null, slots: [] };
  const timezone = typeof data.timezone === 'string' && isTimeZone(data.timezone) ? data.timezone : null;
  const slots = Array.isArray(data.slots) ? data.slots.map(parseSlot).filter((slot): slot is Slot => slot !== null) : [];
  return { timezone, slots };
}

const wallFormats = new Map<string, Intl.DateTimeFormat>();

function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    wallFormats.set(timeZone, format);
  }
  return format;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock of `zone` at instant `at`, read with an explicit zone (never the browser's). */
function wallAt(at: number, timeZone: string): Wall {
  const parts = wallFormat(timeZone).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour') % 24,
    minute: part('minute'),
    second: part('second'),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The clinic day (YYYY-MM-DD) and time (HH:MM) of an instant, or null for an invalid one. */
export function zonedMoment(iso: string, timeZone: string): { date: string; time: string } | null {
  const at = instantOf(iso);
  if (Number.isNaN(at)) return null;
  const wall = wallAt(at, timeZone);
  return {
    date: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`,
    time: `${pad(wall.hour)}:${pad(wall.minute)}`,
  };
}

/** Minutes `zone` is ahead of UTC at instant `at`. */
function offsetMinutes(at: number, timeZone: string): number {
  const wall = wallAt(at, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/**
 * The instant of a clinic wall time ("2025-03-05", "10:00") as ISO-8601 with the clinic's
 * offset ("2025-03-05T10:00:00+09:00"), as `appointment-hold` wants its `start`.
 */
export function zonedIso(date: string, time: string, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(time);
  if (!d || !t) return null;
  const guess = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  let offset = offsetMinutes(guess, timeZone);
  const second = offsetMinutes(guess - offset * 60_000, timeZone);
  if (second !== offset) offset = second;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${date}T${t[1] ?? '00'}:${t[2] ?? '00'}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Slots placed in the clinic's calendar, in time order. */
export function placeSlots(slots: readonly Slot[], timeZone: string): PlacedSlot[] {
  const placed: PlacedSlot[] = [];
  for (const slot of slots) {
    const moment = zonedMoment(slot.start, timeZone);
    if (moment) placed.push({ ...slot, ...moment, at: instantOf(slot.start) });
  }
  return placed.sort((a, b) => a.at - b.at);
}

/** Placed slots by clinic day. */
export function slotsByDay(slots: readonly PlacedSlot[]): Map<string, PlacedSlot[]> {
  const byDay = new Map<string, PlacedSlot[]>();
  for (const slot of slots) byDay.set(slot.date, [...(byDay.get(slot.date) ?? []), slot]);
  return byDay;
}

/** The slot starting at instant `at`, if it is offered. */
export function findSlot<T extends Slot>(slots: readonly T[], at: number): T | undefined {
  return slots.find((slot) => instantOf(slot.start) === at);
}

/** Whether the slot at `at` is still free for this counselor choice ("any": anyone). */
export function isOffered(slots: readonly Slot[], at: number, counselorId: string): boolean {
  const slot = findSlot(slots, at);
  if (!slot) return false;
  return counselorId === ANY_COUNSELOR || slot.counselorIds.includes(counselorId);
}

/** Up to `count` free slots nearest to instant `at` (earlier first on a tie), `at` itself left out. */
export function nearestSlots<T extends Slot>(slots: readonly T[], at: number, count = 3): T[] {
  return slots
    .filter((slot) => instantOf(slot.start) !== at)
    .sort((a, b) => {
      const da = Math.abs(instantOf(a.start) - at);
      const db = Math.abs(instantOf(b.start) - at);
      return da - db || instantOf(a.start) - instantOf(b.start);
    })
    .slice(0, count);
}

/**
 * The month's slots with the person's own hold put back: the shared month document leaves
 * out a slot whose only free counselor is the one holding it for this very appointment.
 */
export function withOwnHold(slots: readonly Slot[], own: { start: string; counselorId: string } | null): Slot[] {
  if (!own) return [...slots];
  const at = instantOf(own.start);
  if (Number.isNaN(at)) return [...slots];
  const existing = findSlot(slots, at);
  if (!existing) return [...slots, { start: own.start, end: own.start, counselorIds: [own.counselorId] }];
  if (existing.counselorIds.includes(own.counselorId)) return [...slots];
  return slots.map((slot) => (slot === existing ? { ...slot, counselorIds: [...slot.counselorIds, own.counselorId] } : slot));
}
