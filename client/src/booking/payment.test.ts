import { describe, expect, it } from 'vitest';
import { parseSessionStatus, paymentOutcome, priceOf, retryRoute } from './payment';

const appointment = (status: string, payment: Record<string, unknown> | null = null, extra: Record<string, unknown> = {}) => ({
  status,
  payment,
  ...extra,
});
const reply = (data: Record<string, unknown>) => parseSessionStatus(data);

describe('the outcome of a payment', () => {
  it('is confirmed when the appointment is, by the live document or the status reply', () => {
    expect(paymentOutcome(appointment('confirmed', { status: 'paid', sessionId: 'cs_1' }), 'cs_1', null)).toBe('confirmed');
    expect(
      paymentOutcome(appointment('pending_payment', { status: 'open', sessionId: 'cs_1' }), 'cs_1', reply({ appointmentStatus: 'confirmed' })),
    ).toBe('confirmed');
  });

  it('is pending while the session is open or paid but not yet applied', () => {
    expect(paymentOutcome(appointment('pending_payment', { status: 'open', sessionId: 'cs_1' }), 'cs_1', null)).toBe('pending');
    expect(
      paymentOutcome(
        appointment('pending_payment', { status: 'open', sessionId: 'cs_1' }),
        'cs_1',
        reply({ status: 'complete', paymentStatus: 'paid', appointmentStatus: 'pending_payment', payment: 'open' }),
      ),
    ).toBe('pending');
  });

  it('failed when the payment of this session expired, failed or was refunded', () => {
    for (const status of ['expired', 'failed', 'refund_pending', 'refunded']) {
      expect(paymentOutcome(appointment('draft', { status, sessionId: 'cs_1' }), 'cs_1', null), status).toBe('failed');
    }
    expect(paymentOutcome(appointment('cancelled'), 'cs_1', null)).toBe('failed');
    expect(paymentOutcome(appointment('pending_payment', { status: 'open', sessionId: 'cs_1' }), 'cs_1', reply({ status: 'expired' }))).toBe(
      'failed',
    );
  });

  it('does not take an older session for the current attempt', () => {
    // An older session failed, the person started a new one meanwhile.
    expect(paymentOutcome(appointment('pending_payment', { status: 'open', sessionId: 'cs_2' }), 'cs_1', reply({ status: 'expired' }))).toBe(
      'pending',
    );
    expect(paymentOutcome(appointment('pending_payment', { status: 'expired', sessionId: 'cs_2' }), 'cs_1', null)).toBe('pending');
  });
});

describe('try again', () => {
  const now = Date.parse('2025-03-05T00:00:00Z');
  const hold = { date: '2025-03-06', time: '10:00', timezone: 'Asia/Tokyo', counselorId: 'c-sato', holdExpiresAt: '2025-03-05T00:20:00Z' };
  it('goes to the checkout while the payment is awaited, the review while a draft holds its time, else the calendar', () => {
    expect(retryRoute(appointment('pending_payment', { status: 'open' }, hold), 'Asia/Tokyo', now)).toBe('/b/checkout');
    expect(retryRoute(appointment('draft', { status: 'expired' }, hold), 'Asia/Tokyo', now)).toBe('/b/review');
    expect(retryRoute(appointment('draft', { status: 'expired' }), 'Asia/Tokyo', now)).toBe('/b/appointment');
    expect(retryRoute(null, 'Asia/Tokyo', now)).toBe('/b/appointment');
  });
});

describe('the price', () => {
  it('is read from service-read', () => {
    expect(priceOf({ price: { amount: 16500, currency: 'JPY' } })).toEqual({ amount: 16500, currency: 'JPY' });
    expect(priceOf({ price: null })).toBeNull();
    expect(priceOf({ price: { amount: 0, currency: 'JPY' } })).toBeNull();
  });
});
