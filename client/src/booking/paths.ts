/**
 * The addresses of a booking after the questionnaire (My booking, rescheduling) and whether an
 * appointment is past its draft: what the login screens need of booking/landing.ts, without
 * the intake definition its redirects read.
 */

/** The person's booking page (realtime/mail/links.py links to it). */
export const MY_BOOKING_ROUTE = '/b/booking';
/** The reschedule screen (`?id=`): its own module; My booking only links to it. */
export const RESCHEDULE_ROUTE = '/b/reschedule';

/** Whether the appointment is past its draft: submitted, booked, or ended. */
export function isBooked(status: unknown): boolean {
  return typeof status === 'string' && status !== 'draft';
}

/** My booking's address for one appointment, with `?action=cancel` to open its cancel dialog. */
export function myBookingPath(appointmentId: string, action?: 'cancel'): string {
  const query = new URLSearchParams({ id: appointmentId });
  if (action !== undefined) query.set('action', action);
  return `${MY_BOOKING_ROUTE}?${query.toString()}`;
}

/** The reschedule screen's address for one appointment. */
export function reschedulePath(appointmentId: string): string {
  return `${RESCHEDULE_ROUTE}?${new URLSearchParams({ id: appointmentId }).toString()}`;
}
