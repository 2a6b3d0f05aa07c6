import { describe, expect, it } from 'vitest';
import { definition } from '../intake/definition';
import { isBooked, landingRedirect, MY_BOOKING_ROUTE, myBookingPath, reschedulePath } from './landing';

const steps = definition.steps.map((step) => step.route);
const after = ['/b/appointment', '/b/review', '/b/checkout', '/b/payment-confirmed', '/b/confirmed'];

describe('landingRedirect', () => {
  it('leaves a draft, or an appointment not loaded yet, where it is', () => {
    for (const path of ['/b', '/b/clinic', ...steps, ...after, MY_BOOKING_ROUTE]) {
      expect(landingRedirect(path, 'draft')).toBeNull();
      expect(landingRedirect(path, undefined)).toBeNull();
      expect(landingRedirect(path, null)).toBeNull();
    }
  });

  it('sends a booked person from the start and every questionnaire step to My booking', () => {
    expect(steps.length).toBeGreaterThan(5);
    for (const status of ['pending_payment', 'confirmed', 'cancelled', 'completed', 'no_show', 'expired']) {
      for (const path of ['/b', '/b/', ...steps]) expect(landingRedirect(path, status)).toBe(MY_BOOKING_ROUTE);
      expect(landingRedirect(MY_BOOKING_ROUTE, status)).toBeNull();
      expect(landingRedirect('/b/reschedule', status)).toBeNull();
    }
  });

  it('keeps the booking screens after the questionnaire while the booking is under way, not once it ended', () => {
    for (const path of after) {
      expect(landingRedirect(path, 'pending_payment')).toBeNull();
      expect(landingRedirect(path, 'confirmed')).toBeNull();
      for (const ended of ['cancelled', 'completed', 'no_show', 'expired']) expect(landingRedirect(path, ended)).toBe(MY_BOOKING_ROUTE);
    }
  });

  it('names the booking states', () => {
    expect(isBooked('draft')).toBe(false);
    expect(isBooked(undefined)).toBe(false);
    expect(isBooked('confirmed')).toBe(true);
  });
});

describe('addresses', () => {
  it('are the ones the mails link to', () => {
    expect(myBookingPath('a-1')).toBe('/b/booking?id=a-1');
    expect(myBookingPath('a-1', 'cancel')).toBe('/b/booking?id=a-1&action=cancel');
    expect(reschedulePath('a 1')).toBe('/b/reschedule?id=a+1');
  });
});
