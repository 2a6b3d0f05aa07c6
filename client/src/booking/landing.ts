/**
 * Where a signed-in person lands (docs/product.md "My booking"): once their appointment is
 * no longer a draft, no route leads them into editing the questionnaire. The booking start
 * (`/b`, `/b/`) and every questionnaire step go to My booking; the screens after the
 * questionnaire (calendar, review, checkout, payment, confirmation) keep working while the
 * booking is in progress (pending_payment, confirmed) and go to My booking once it ended.
 */
import { definition } from '../intake/definition';
import { isBooked, MY_BOOKING_ROUTE } from './paths';

// The light part (routes, addresses, isBooked) is in paths.ts, for screens that need it
// without the questionnaire's definition (the login screens).
export { isBooked, MY_BOOKING_ROUTE, myBookingPath, RESCHEDULE_ROUTE, reschedulePath } from './paths';

/** Statuses in which a booking is under way or booked, and can still change. */
const IN_PROGRESS: ReadonlySet<string> = new Set(['pending_payment', 'confirmed']);

/** The questionnaire's screens and the booking start. */
const QUESTIONNAIRE: ReadonlySet<string> = new Set(['/b', '/b/', ...definition.steps.map((step) => step.route)]);

/** The screens between the questionnaire and My booking. */
const AFTER_QUESTIONNAIRE: ReadonlySet<string> = new Set(['/b/appointment', '/b/review', '/b/checkout', '/b/payment-confirmed', '/b/confirmed']);

/**
 * Where a person on `pathname` (without query) goes instead, given their appointment's
 * status (unknown while it loads: stay), or null to stay.
 */
export function landingRedirect(pathname: string, status: unknown): string | null {
  if (!isBooked(status)) return null;
  if (QUESTIONNAIRE.has(pathname)) return MY_BOOKING_ROUTE;
  if (AFTER_QUESTIONNAIRE.has(pathname) && !IN_PROGRESS.has(status as string)) return MY_BOOKING_ROUTE;
  return null;
}
