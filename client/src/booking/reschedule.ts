/**
 * Moving a booked time (`appointment-reschedule`, docs/protocol.md "Rescheduling"): until when
 * it may move, and what a refusal means for the screen. Pure; "now" is always passed in.
 */
import { isRecord } from '../isRecord';

/** The statuses whose time can move (the server's realtime/booking/reschedule.py). */
export const MOVABLE_STATUSES: readonly string[] = ['confirmed', 'pending_payment'];

const HOUR_MS = 3_600_000;

/** The last instant (ms) the booking starting at `start` may move: the service's minimum notice before it. */
export function movableUntil(start: string, minNoticeHours: number): number {
  return Date.parse(start) - minNoticeHours * HOUR_MS;
}

/** Whether the booking can still move at `now`, as the server decides it (a later refusal still wins). */
export function canMove(status: unknown, start: string, minNoticeHours: number, now: number): boolean {
  return typeof status === 'string' && MOVABLE_STATUSES.includes(status) && now <= movableUntil(start, minNoticeHours);
}

export type RescheduleRefusal =
  /** The new time was taken: `details.alternatives` offers the nearest free ones. */
  | { kind: 'taken'; alternatives: unknown }
  /** Inside the minimum notice of the current start: it may only be cancelled now. */
  | { kind: 'tooLate'; until: number | null }
  /** The appointment's status does not allow a move (cancelled, ended...). */
  | { kind: 'status'; status: string };

/** What an ABORTED `appointment-reschedule` says, or null for any other failure. */
export function rescheduleRefusal(code: string, details: unknown): RescheduleRefusal | null {
  if (code !== 'aborted' || !isRecord(details)) return null;
  if (Array.isArray(details.alternatives)) return { kind: 'taken', alternatives: details.alternatives };
  if (typeof details.movableUntil === 'string') {
    const until = Date.parse(details.movableUntil);
    return { kind: 'tooLate', until: Number.isNaN(until) ? null : until };
  }
  if (typeof details.status === 'string') return { kind: 'status', status: details.status };
  return null;
}
