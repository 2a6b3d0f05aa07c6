/**
 * Refunds as the client words them (docs/protocol.md "Cancelling and refunds"): the quote of
 * `appointment-cancelQuote` before a cancel is confirmed, and the refund state recorded on the
 * appointment's `payment` (or a bookings feed row's `refund`). Pure functions; the amounts are
 * the server's (realtime/booking/refunds.py), never computed here.
 */
import { isRecord } from '../isRecord';

/** An amount in the currency's smallest unit (yen), with its ISO code in capitals. */
export interface Money {
  amount: number;
  currency: string;
}

export interface CancelQuote {
  /** What a cancel now gives back; null when nothing was paid. */
  refund: Money | null;
  /** ISO time until which a cancel is refunded in full (null: no booked time). */
  freeUntil: string | null;
  /** Percent of the amount paid. */
  share: number;
}

const money = (amount: unknown, currency: unknown): Money | null =>
  typeof amount === 'number' && Number.isInteger(amount) && amount >= 0 && typeof currency === 'string' && currency !== ''
    ? { amount, currency: currency.toUpperCase() }
    : null;

/** `appointment-cancelQuote`'s reply, or null when it is not one. */
export function parseCancelQuote(value: unknown): CancelQuote | null {
  if (!isRecord(value) || typeof value.share !== 'number') return null;
  const refund = isRecord(value.refund) ? money(value.refund.amount, value.refund.currency) : null;
  if (value.refund !== null && refund === null) return null;
  return { refund, freeUntil: typeof value.freeUntil === 'string' ? value.freeUntil : null, share: value.share };
}

/** Which sentence the cancel dialog shows (booking:refund.quote.*), null: none (a free service). */
export type QuoteWording = { key: 'full'; price: Money } | { key: 'partial'; price: Money; share: number } | { key: 'none' } | null;

export function quoteWording(quote: CancelQuote | null): QuoteWording {
  if (!quote?.refund) return null;
  if (quote.refund.amount === 0) return { key: 'none' };
  if (quote.share >= 100) return { key: 'full', price: quote.refund };
  return { key: 'partial', price: quote.refund, share: quote.share };
}

/** Where a cancelled payment's refund stands: made, asked for, or none by policy. */
export type RefundView = { state: 'refunded'; price: Money | null } | { state: 'pending'; price: Money | null } | { state: 'none' };

const STATES: Record<string, 'refunded' | 'pending' | 'none'> = {
  refunded: 'refunded',
  refund_pending: 'pending',
  not_refunded: 'none',
};

function viewOf(status: unknown, price: Money | null): RefundView | null {
  const state = typeof status === 'string' ? STATES[status] : undefined;
  if (state === undefined) return null;
  return state === 'none' ? { state } : { state, price };
}

/** The refund of an appointment document's `payment` (`status`, `refundAmount`, `currency`). */
export function refundOfPayment(payment: unknown): RefundView | null {
  if (!isRecord(payment)) return null;
  return viewOf(payment.status, money(payment.refundAmount, payment.currency));
}

/** The refund of a bookings feed row (`refund`: `{status, amount, currency, share}` or null). */
export function refundOfFeed(refund: unknown): RefundView | null {
  if (!isRecord(refund)) return null;
  return viewOf(refund.status, money(refund.amount, refund.currency));
}
