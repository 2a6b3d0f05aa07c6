/**
 * What the last `appointment-hold` reply of this tab said beyond the document: the attempt's
 * cap (`holdEndsBy`) and the server's clock. Kept per appointment in sessionStorage (a reload
 * keeps it) and shared with the components that show the countdown (useHeldReply).
 */
import { useSyncExternalStore } from 'react';
import { parseHoldReply, type HoldReply } from './hold';
import { callFunction } from '../realtime';

export interface HoldClock {
  endsBy: number | null;
  offsetMs: number;
}

const PREFIX = 'gc.holdClock.';
const listeners = new Set<() => void>();
/** Where sessionStorage refuses (a private mode): kept in memory for this page only. */
const memory = new Map<string, string>();
/** The last value read, so that an unchanged entry is the same object (useSyncExternalStore). */
let last: { raw: string | null; clock: HoldClock | null } = { raw: null, clock: null };

function rawOf(appointmentId: string): string | null {
  try {
    return window.sessionStorage.getItem(PREFIX + appointmentId) ?? memory.get(appointmentId) ?? null;
  } catch {
    return memory.get(appointmentId) ?? null;
  }
}

function read(appointmentId: string): HoldClock | null {
  const raw = rawOf(appointmentId);
  if (raw === last.raw) return last.clock;
  let clock: HoldClock | null = null;
  try {
    const parsed: unknown = raw === null ? null : JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && 'offsetMs' in parsed && typeof parsed.offsetMs === 'number') {
      const endsBy = 'endsBy' in parsed && typeof parsed.endsBy === 'number' ? parsed.endsBy : null;
      clock = { endsBy, offsetMs: parsed.offsetMs };
    }
  } catch {
    clock = null; // not ours: the countdown uses the hold's own end until the next renewal
  }
  last = { raw, clock };
  return clock;
}

export function rememberHoldReply(appointmentId: string, reply: HoldReply): void {
  const raw = JSON.stringify({ endsBy: reply.endsBy, offsetMs: reply.offsetMs } satisfies HoldClock);
  try {
    window.sessionStorage.setItem(PREFIX + appointmentId, raw);
  } catch {
    memory.set(appointmentId, raw);
  }
  for (const listener of listeners) listener();
}

/**
 * The time this tab is moving the hold to, while that `appointment-hold` is on its way: a
 * renewal of the old time sent meanwhile would move it back, so renewals wait for the move.
 */
const moving = new Map<string, string>();

export function noteMoving(appointmentId: string, start: string | null): void {
  if (start === null) moving.delete(appointmentId);
  else moving.set(appointmentId, start);
}

/** Whether a renewal of `start` must wait: the hold is being moved to another time. */
export function movingElsewhere(appointmentId: string, start: string): boolean {
  const target = moving.get(appointmentId);
  if (target === undefined) return false;
  if (Date.parse(target) !== Date.parse(start)) return true;
  moving.delete(appointmentId); // the move has landed: this is the new time's renewal
  return false;
}

/** `appointment-hold` from the calendar: a new time (or the same), its reply remembered. */
export async function holdTimeNow(appointmentId: string, start: string, counselorId: string, personTimezone?: string): Promise<void> {
  noteMoving(appointmentId, start);
  const sentAt = Date.now();
  try {
    const reply = await callFunction('appointment-hold', { appointmentId, start, counselorId, personTimezone });
    const parsed = parseHoldReply(reply, sentAt, Date.now());
    if (parsed !== null) rememberHoldReply(appointmentId, parsed);
  } catch (error) {
    noteMoving(appointmentId, null); // not moved: the old time's renewals go on
    throw error;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The remembered reply of the appointment's holds in this tab, or null. */
export function useHoldClock(appointmentId: string | null): HoldClock | null {
  return useSyncExternalStore(subscribe, () => (appointmentId === null ? null : read(appointmentId)));
}
