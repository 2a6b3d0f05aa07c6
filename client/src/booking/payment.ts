/**
 * Card payment as the client sees it (docs/protocol.md "Card payment"): the outcome of a
 * checkout session from the live appointment and `stripe-getSessionStatus`, and where
 * "try again" leads. Pure functions.
 */
import { liveHold } from './hold';
import { isRecord } from '../isRecord';

/** `payment.status` values after which this payment will not confirm the booking. */
export const FAILED_PAYMENT_STATUSES: ReadonlySet<string> = new Set(['expired', 'failed', 'refund_pending', 'refunded']);

export interface SessionStatusReply {
  status: string | null;
  paymentStatus: string | null;
  appointmentId: string | null;
  appointmentStatus: string | null;
  payment: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function parseSessionStatus(value: unknown): SessionStatusReply {
  const data = isRecord(value) ? value : {};
  return {
    status: text(data.status),
    paymentStatus: text(data.paymentStatus),
    appointmentId: text(data.appointmentId),
    appointmentStatus: text(data.appointmentStatus),
    payment: text(data.payment),
  };
}

export type PaymentOutcome = 'confirmed' | 'failed' | 'pending';

/**
 * - confirmed: the appointment is (the live document, or the status reply, says so);
 * - failed: the appointment was cancelled or expired, its payment (of this session) expired,
 *   failed or was refunded, or the session itself expired;
 * - pending: anything else (paid but not yet applied, webhook on its way).
 */
export function paymentOutcome(
  appointment: Record<string, unknown> | null,
  sessionId: string | null,
  reply: SessionStatusReply | null,
): PaymentOutcome {
  const status = appointment?.status;
  if (status === 'confirmed' || reply?.appointmentStatus === 'confirmed') return 'confirmed';
  if (status === 'cancelled' || status === 'expired') return 'failed';
  const payment = isRecord(appointment?.payment) ? appointment.payment : null;
  const paymentSession = text(payment?.sessionId);
  const sameSession = sessionId === null || paymentSession === null || paymentSession === sessionId;
  if (sameSession && typeof payment?.status === 'string' && FAILED_PAYMENT_STATUSES.has(payment.status)) return 'failed';
  if (reply && (reply.status === 'expired' || (reply.payment !== null && FAILED_PAYMENT_STATUSES.has(reply.payment)))) {
    // The reply is a moment older than a live document that moved on to a new, open attempt.
    if (!(paymentSession !== null && sessionId !== null && paymentSession !== sessionId && payment?.status === 'open')) {
      return 'failed';
    }
  }
  return 'pending';
}

/**
 * Where "try again" leads: the checkout while the appointment still waits for its payment
 * (it makes a new session if the old one ended), the review while a draft still holds its
 * time, else the calendar (the hold is gone: choose a time again).
 */
export function retryRoute(appointment: Record<string, unknown> | null, fallbackZone: string, now: number): string {
  if (appointment?.status === 'pending_payment') return '/b/checkout';
  if (appointment?.status === 'confirmed') return '/b/confirmed';
  if (liveHold(appointment, fallbackZone, now)) return '/b/review';
  return '/b/appointment';
}

/** The service's price, when it has one (service-read `price`). */
export function priceOf(service: unknown): { amount: number; currency: string } | null {
  if (!isRecord(service) || !isRecord(service.price)) return null;
  const { amount, currency } = service.price;
  if (typeof amount !== 'number' || amount <= 0) return null;
  return { amount, currency: typeof currency === 'string' && currency !== '' ? currency.toUpperCase() : 'JPY' };
}
