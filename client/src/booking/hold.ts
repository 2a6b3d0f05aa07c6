/**
 * The time an appointment holds (docs/protocol.md "The appointment document": `counselorId`, `date`, `time`,
 * `timezone`, `holdExpiresAt`), its countdown and its renewal while the person reviews.
 * Pure functions; "now" is always passed in.
 */
import { isIsoDate, isTimeZone } from '../intake/dates';
import { zonedIso } from './slots';
import { isRecord } from '../isRecord';

/** A hold lasts 10 minutes on the server (HOLD_MINUTES); the review renews it every 4. */
export const HOLD_RENEW_INTERVAL_MS = 4 * 60_000;
/** Never let a hold come closer than this to its end before renewing it. */
export const HOLD_RENEW_MARGIN_MS = 60_000;
/** After a renewal that failed for want of a connection, try again this soon. */
export const HOLD_RENEW_RETRY_MS = 20_000;

export interface BookedTime {
  /** YYYY-MM-DD and HH:MM in the clinic's zone. */
  date: string;
  time: string;
  timeZone: string;
  counselorId: string | null;
  /** The start as ISO-8601 with the clinic's offset (what appointment-hold takes). */
  start: string;
  /** `holdExpiresAt` in ms, when there is one. */
  expiresAt: number | null;
}

/** The appointment's chosen time (held or booked), or null when it has none. */
export function bookedTime(appointment: unknown, fallbackZone: string): BookedTime | null {
  if (!isRecord(appointment)) return null;
  const { date, time, timezone, counselorId, holdExpiresAt } = appointment;
  if (typeof date !== 'string' || !isIsoDate(date) || typeof time !== 'string' || !/^\d{2}:\d{2}/.test(time)) return null;
  const timeZone = isTimeZone(timezone) ? timezone : fallbackZone;
  const start = zonedIso(date, time.slice(0, 5), timeZone);
  if (start === null) return null;
  const expires = typeof holdExpiresAt === 'string' ? Date.parse(holdExpiresAt) : Number.NaN;
  return {
    date,
    time: time.slice(0, 5),
    timeZone,
    counselorId: typeof counselorId === 'string' && counselorId !== '' ? counselorId : null,
    start,
    expiresAt: Number.isNaN(expires) ? null : expires,
  };
}

/** The hold of a draft appointment that has not lapsed yet, or null. */
export function liveHold(appointment: unknown, fallbackZone: string, now: number): BookedTime | null {
  if (!isRecord(appointment) || appointment.status !== 'draft') return null;
  const held = bookedTime(appointment, fallbackZone);
  if (held === null) return null;
  const { expiresAt, counselorId } = held;
  return expiresAt === null || expiresAt <= now || counselorId === null ? null : held;
}

/**
 * What `appointment-hold` answered (docs/protocol.md "Booking"): the hold's end, the end its
 * renewals may reach (`holdEndsBy`, the attempt's cap) and how far the server's clock is ahead
 * of this device's (`serverTime` against the middle of the call's round trip).
 */
export interface HoldReply {
  expiresAt: number;
  endsBy: number | null;
  offsetMs: number;
}

export function parseHoldReply(reply: unknown, sentAt: number, receivedAt: number): HoldReply | null {
  if (!isRecord(reply) || typeof reply.holdExpiresAt !== 'string') return null;
  const expiresAt = Date.parse(reply.holdExpiresAt);
  if (Number.isNaN(expiresAt)) return null;
  const endsBy = typeof reply.holdEndsBy === 'string' ? Date.parse(reply.holdEndsBy) : Number.NaN;
  const serverTime = typeof reply.serverTime === 'string' ? Date.parse(reply.serverTime) : Number.NaN;
  return {
    expiresAt,
    endsBy: Number.isNaN(endsBy) ? null : endsBy,
    offsetMs: Number.isNaN(serverTime) ? 0 : Math.round(serverTime - (sentAt + receivedAt) / 2),
  };
}

/**
 * The end the countdown counts to, on the server's clock. A draft's hold is renewed while the
 * person is on the booking steps (a new 10 minutes every 4), up to the attempt's cap: the
 * person has until the cap, so that is what is shown, and a renewal changes nothing on screen.
 * Without a known cap, or once the renewals are refused (`capped`), the hold's own end. A
 * submitted booking (waiting for its payment) is not renewed: its hold's end, which the payment
 * page extends while it is open.
 */
export function holdDeadline(status: unknown, expiresAt: number, endsBy: number | null, capped: boolean): number {
  if (status !== 'draft' || capped || endsBy === null) return expiresAt;
  return Math.max(expiresAt, endsBy);
}

/** Polite announcements of the countdown: once at five minutes left, once at one, once at the end. */
export type HoldMoment = 'fiveMinutes' | 'oneMinute' | 'expired';

export function holdMoment(secondsLeft: number): HoldMoment | null {
  if (secondsLeft <= 0) return 'expired';
  if (secondsLeft <= 60) return 'oneMinute';
  if (secondsLeft <= 300) return 'fiveMinutes';
  return null;
}

/** A time held (or held until it lapsed) by a booking in the making. */
export type HeldTime = BookedTime & { expiresAt: number; counselorId: string };

/** The time of a booking in the making (a draft, or one waiting for its payment), held or lapsed; else null. */
export function heldTime(appointment: unknown, fallbackZone: string): HeldTime | null {
  if (!isRecord(appointment) || (appointment.status !== 'draft' && appointment.status !== 'pending_payment')) return null;
  const held = bookedTime(appointment, fallbackZone);
  if (held === null) return null;
  const { expiresAt, counselorId } = held;
  return expiresAt === null || counselorId === null ? null : { ...held, expiresAt, counselorId };
}

/** Whether the appointment holds a time now (signing out asks first). */
export function timeHeld(appointment: unknown, now: number): boolean {
  const held = heldTime(appointment, 'UTC');
  return held !== null && held.expiresAt > now;
}

/** Whole seconds left until `expiresAt` (0 once past). */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** 605 -> "10:05"; minutes are not capped at 59 (a payment hold lasts over half an hour). */
export function formatMmSs(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * How long to wait before renewing a hold: 4 minutes after the last renewal (or the page's
 * arrival), but never later than a minute before the hold would lapse.
 */
export function nextRenewalDelay(expiresAt: number, now: number, lastRenewedAt: number): number {
  const due = Math.min(lastRenewedAt + HOLD_RENEW_INTERVAL_MS, expiresAt - HOLD_RENEW_MARGIN_MS);
  return Math.max(0, due - now);
}

/**
 * Why `appointment-hold` refused, when not because the time was taken (docs/protocol.md,
 * "Booking"): the booking has held times for as long as it may (`ABORTED`, `details.reason`
 * "holdLimit", `details.retryAfter` when a time can be held again), or consent is missing
 * (`details.codes.consent`). `code` is the error's client code ('aborted', ...).
 */
export type HoldRefusal = { kind: 'limit'; retryAfter: number | null } | { kind: 'consent' };

export function holdRefusal(code: string, details: unknown): HoldRefusal | null {
  if (!isRecord(details)) return null;
  if (code === 'aborted' && details.reason === 'holdLimit') {
    const retryAfter = typeof details.retryAfter === 'string' ? Date.parse(details.retryAfter) : Number.NaN;
    return { kind: 'limit', retryAfter: Number.isNaN(retryAfter) ? null : retryAfter };
  }
  if (code === 'invalid-argument' && isRecord(details.codes) && details.codes.consent === 'consentRequired') {
    return { kind: 'consent' };
  }
  return null;
}
