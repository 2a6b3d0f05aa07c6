/**
 * The held time's countdown at the top of every page while a booking in the making holds a
 * time (docs/product.md "The hold countdown"): sticky, so it stays in view on a long review.
 * While the booking is a draft it also renews the hold (useHoldRenewal) and counts to the end
 * the renewals may reach (holdDeadline), on the server's clock (holdClock): a renewal changes
 * nothing on screen. Lazily loaded by the Layout.
 */
import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import './booking.css';
import { heldTime, holdDeadline, holdRefusal, secondsLeft } from './hold';
import { useHoldClock } from './holdClock';
import { HoldCountdown } from './HoldCountdown';
import { useHoldRenewal } from './useHoldRenewal';
import { useNow } from './useNow';
import { FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectAppointment, selectClinic } from '../store/selectors';
import { isTimeZone } from '../intake/dates';

/** Pages that show the booking's own end: the confirmation says it all. */
const WITHOUT_BAR = new Set(['/b/confirmed', '/b/payment-confirmed']);

export default function HeldTimeBar() {
  const appointment = useAppStore(selectAppointment);
  const clinic = useAppStore(selectClinic);
  const { pathname } = useLocation();
  const document = appointment?.exists ? (appointment.data ?? null) : null;
  const appointmentId = appointment?.exists ? (appointment.path.split('/')[1] ?? null) : null;
  const clock = useHoldClock(appointmentId);
  const now = useNow(1000) + (clock?.offsetMs ?? 0);
  const zone = clinic?.exists && isTimeZone(clinic.data?.timezone) ? clinic.data.timezone : 'UTC';
  const held = heldTime(document, zone);
  const status = document?.status;
  const [lostFor, setLostFor] = useState<string | null>(null);
  const [cappedFor, setCappedFor] = useState<string | null>(null);
  const key = held === null ? null : `${held.start}|${held.counselorId}`;
  const lost = key !== null && lostFor === key;
  const capped = key !== null && cappedFor === key;
  const live = held !== null && held.expiresAt > now && !lost;

  const onLost = useCallback(
    (error: unknown) => {
      if (error instanceof FunctionsError && holdRefusal(error.code, error.details)?.kind === 'limit') setCappedFor(key);
      else setLostFor(key);
    },
    [key],
  );
  useHoldRenewal(appointmentId ?? '', status === 'draft' && live && !capped ? held : null, clock !== null && clock.endsBy !== null, onLost);

  if (held === null || WITHOUT_BAR.has(pathname)) return null;
  const deadline = holdDeadline(status, held.expiresAt, clock?.endsBy ?? null, capped);
  return (
    <div className="held-time-bar">
      <HoldCountdown secondsLeft={live ? secondsLeft(deadline, now) : 0} kind={status === 'pending_payment' ? 'payment' : 'held'} />
    </div>
  );
}
