/**
 * The person's place on the waitlist as their appointment document shows it (docs/protocol.md
 * "Waitlist": `waitlist` {from, to, counselorId, status, joinedAt, offer}), and the offer of a
 * freed time held for them. Pure functions; "now" is always passed in.
 */
import { addDays, isIsoDate } from '../intake/dates';
import { isRecord } from '../isRecord';
import { liveHold } from './hold';
import { instantOf, zonedMoment } from './slots';

export const WAITLIST_STATUSES = ['waiting', 'offered', 'accepted', 'left', 'lapsed'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** Days asked for by default from the chosen (or first) day: a week. */
export const DEFAULT_RANGE_DAYS = 6;

export interface WaitlistOffer {
  /** The held start, ISO-8601 with the clinic's offset, and its clinic day and time. */
  start: string;
  date: string;
  time: string;
  counselorId: string | null;
  /** The end of the hold (ms) and its clinic time (HH:MM). */
  until: number;
  untilTime: string;
}

export interface Waitlist {
  from: string;
  to: string;
  counselorId: string | null;
  status: WaitlistStatus;
  offer: WaitlistOffer | null;
}

function isStatus(value: unknown): value is WaitlistStatus {
  return typeof value === 'string' && (WAITLIST_STATUSES as readonly string[]).includes(value);
}

function offerOf(value: unknown, clinicZone: string): WaitlistOffer | null {
  if (!isRecord(value) || typeof value.start !== 'string' || typeof value.until !== 'string') return null;
  const at = zonedMoment(value.start, clinicZone);
  const until = Date.parse(value.until);
  const end = Number.isNaN(until) ? null : zonedMoment(value.until, clinicZone);
  if (at === null || end === null) return null;
  return {
    start: value.start,
    date: at.date,
    time: at.time,
    counselorId: typeof value.counselorId === 'string' ? value.counselorId : null,
    until,
    untilTime: end.time,
  };
}

/** The appointment's `waitlist`, or null when it has none (or one this client cannot read). */
export function waitlistOf(appointment: unknown, clinicZone: string): Waitlist | null {
  if (!isRecord(appointment) || !isRecord(appointment.waitlist)) return null;
  const { from, to, counselorId, status, offer } = appointment.waitlist;
  if (!isIsoDate(from) || !isIsoDate(to) || !isStatus(status)) return null;
  return {
    from,
    to,
    counselorId: typeof counselorId === 'string' ? counselorId : null,
    status,
    offer: status === 'offered' ? offerOf(offer, clinicZone) : null,
  };
}

/**
 * The offer still held for the person at `now`: offered, not lapsed, and the draft still holds
 * that very time (they may have chosen another one since).
 */
export function liveOffer(appointment: unknown, clinicZone: string, now: number): WaitlistOffer | null {
  const offer = waitlistOf(appointment, clinicZone)?.offer ?? null;
  const held = liveHold(appointment, clinicZone, now);
  if (offer === null || held === null || offer.until <= now) return null;
  return instantOf(held.start) === instantOf(offer.start) ? offer : null;
}

/** The form's first range: from the chosen day (or today) for a week, within the horizon. */
export function defaultRange(today: string, lastDay: string, chosen: string): { from: string; to: string } {
  const from = isIsoDate(chosen) && chosen >= today && chosen <= lastDay ? chosen : today;
  const week = addDays(from, DEFAULT_RANGE_DAYS);
  return { from, to: week > lastDay ? lastDay : week };
}
