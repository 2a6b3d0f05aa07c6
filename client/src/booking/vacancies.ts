/**
 * The free times the booking screen shows, from what the server sends (docs/protocol.md
 * "Booking"): a live month document, the first `vacancies-read` reply, the alternatives of a
 * refused `appointment-hold`. Each is placed on the clinic's days, in its zone; and what a new
 * version of a month means for the time the person has chosen. Pure.
 */
import type { TakenNotice } from './BookingTakenAlert';
import { insideWindow, monthKey, monthOf, type PregnancyWindow } from './calendar';
import type { MonthDocument } from './liveMonths';
import { ANY_COUNSELOR, findSlot, isOffered, nearestSlots, parseVacancies, placeSlots, withOwnHold, zonedMoment, type PlacedSlot } from './slots';
import { isRecord } from '../isRecord';

/** The person's own hold: its slot, counselor and clinic day. */
export interface OwnHold {
  start: string;
  counselorId: string;
  date: string;
}

/** The zone of a month document's times (the clinic's). */
export function zoneOf(doc: MonthDocument | undefined, fallback: string): string {
  return parseVacancies(doc?.data).timezone ?? fallback;
}

/** The month's slots as the calendar shows them: the person's own hold put back, the pregnancy window applied. */
export function monthSlots(
  doc: MonthDocument | undefined,
  month: string | null,
  own: OwnHold | null,
  timeZone: string,
  window: PregnancyWindow | null,
): PlacedSlot[] | null {
  if (!doc || month === null) return null;
  const { slots } = parseVacancies(doc.exists ? doc.data : null);
  // The month document leaves out the person's own hold only in the month it is in.
  const mine = own && monthKey(monthOf(own.date)) === monthKey(month) ? own : null;
  return insideWindow(placeSlots(withOwnHold(slots, mine), timeZone), window);
}

/** The first clinic day with a free time in a `vacancies-read` reply, or null when there is none. */
export function firstFreeDay(reply: unknown, fallbackZone: string): string | null {
  const { timezone, slots } = parseVacancies(reply);
  return placeSlots(slots, timezone ?? fallbackZone)[0]?.date ?? null;
}

/** The counselors with free times in a `vacancies-read` reply, in the order they first appear. */
export function counselorsOf(reply: unknown): string[] {
  return [...new Set(parseVacancies(reply).slots.flatMap((slot) => slot.counselorIds))];
}

/** The slots a counselor choice leaves: all for "any", else those that counselor can give. */
export function forCounselor<T extends { counselorIds: string[] }>(slots: T[], counselorId: string): T[] {
  return counselorId === ANY_COUNSELOR ? slots : slots.filter((slot) => slot.counselorIds.includes(counselorId));
}

/**
 * The nearest free times an `appointment-hold` refusal offers (ABORTED, `details.alternatives`),
 * inside the pregnancy window; null when the refusal has none (it is not about a taken time).
 */
export function refusalAlternatives(details: unknown, timeZone: string, window: PregnancyWindow | null): PlacedSlot[] | null {
  if (!isRecord(details) || !Array.isArray(details.alternatives)) return null;
  return insideWindow(placeSlots(parseVacancies({ slots: details.alternatives }).slots, timeZone), window);
}

/** The chosen time: its clinic day, its instant (ms) and the counselor choice. */
export interface Choice {
  date: string;
  at: number;
  counselorId: string;
}

/**
 * What the month's slots now say of the chosen time: null while it is still offered; the time
 * is free but not with that counselor; or it is taken, with the nearest free times.
 */
export function takenNotice(slots: readonly PlacedSlot[], choice: Choice, zone: string): TakenNotice | null {
  if (isOffered(slots, choice.at, choice.counselorId)) return null;
  const when = zonedMoment(new Date(choice.at).toISOString(), zone) ?? { date: choice.date, time: '' };
  if (findSlot(slots, choice.at)) return { reason: 'counselor', ...when, alternatives: [] };
  return { reason: 'taken', ...when, alternatives: nearestSlots(slots, choice.at) };
}
