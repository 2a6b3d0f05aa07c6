/**
 * Keeps the held time while the site is open (HeldTimeBar): `appointment-hold` again with the
 * same slot (which renews the hold for another 10 minutes) every 4 minutes, and never later
 * than a minute before it would lapse; at once when this tab does not know the attempt's cap
 * yet (a reload, another tab's hold). Each reply is remembered (holdClock). A renewal that meets no connection is tried again
 * soon; a refusal (the hold is gone, the appointment moved on, the booking has held times for
 * as long as it may: docs/protocol.md "Booking") is reported once and ends it.
 */
import { useEffect, useRef } from 'react';
import { callFunction, FunctionsError } from '../realtime';
import { HOLD_RENEW_RETRY_MS, nextRenewalDelay, parseHoldReply, type BookedTime } from './hold';
import { movingElsewhere, rememberHoldReply } from './holdClock';

/** Errors that say nothing about the hold itself. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof FunctionsError &&
    (error.code === 'unavailable' || error.code === 'deadline-exceeded' || error.code === 'internal' || error.code === 'resource-exhausted')
  );
}

export function useHoldRenewal(
  appointmentId: string,
  held: BookedTime | null,
  capKnown: boolean,
  onLost: (error: unknown) => void,
): void {
  const expiresAt = held?.expiresAt ?? null;
  const start = held?.start ?? null;
  const counselorId = held?.counselorId ?? null;
  const latest = useRef({ expiresAt, onLost, capKnown });
  useEffect(() => {
    latest.current = { expiresAt: Math.max(expiresAt ?? 0, latest.current.expiresAt ?? 0), onLost, capKnown };
  }, [expiresAt, onLost, capKnown]);

  useEffect(() => {
    if (start === null || counselorId === null) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastRenewedAt = Date.now();
    const schedule = (delay: number) => {
      timer = setTimeout(renew, delay);
    };
    const renew = () => {
      if (movingElsewhere(appointmentId, start)) {
        schedule(HOLD_RENEW_RETRY_MS); // the new time's document is on its way
        return;
      }
      const sentAt = Date.now();
      callFunction('appointment-hold', { appointmentId, start, counselorId }).then(
        (reply) => {
          if (cancelled) return;
          lastRenewedAt = Date.now();
          const parsed = parseHoldReply(reply, sentAt, lastRenewedAt);
          if (parsed !== null) {
            latest.current = { ...latest.current, expiresAt: parsed.expiresAt };
            rememberHoldReply(appointmentId, parsed);
          }
          schedule(nextRenewalDelay(latest.current.expiresAt ?? lastRenewedAt, Date.now(), lastRenewedAt));
        },
        (error: unknown) => {
          if (cancelled) return;
          if (isTransient(error)) schedule(HOLD_RENEW_RETRY_MS);
          else latest.current.onLost(error);
        },
      );
    };
    schedule(latest.current.capKnown ? nextRenewalDelay(latest.current.expiresAt ?? lastRenewedAt, Date.now(), lastRenewedAt) : 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [appointmentId, start, counselorId]);
}
