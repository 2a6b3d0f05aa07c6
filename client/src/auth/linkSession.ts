/**
 * Booking mails' signed links (docs/product.md "My booking", docs/protocol.md "Links in booking
 * mails"): `/b/booking?id=&t=` (view), `&action=cancel` (cancel), `/b/reschedule?id=&t=`
 * (reschedule). The page a link opens posts its token to `/auth/link` first, then drops it from
 * the address (history, screenshots and the Referer never keep it). The session it gets may
 * only read that appointment's booking facts and do the link's purpose; its answers and
 * anything else ask for the normal e-mail sign-in ("sign in to see more").
 */
import { linkPurposes, linkTokenParam } from '../contract';
import { MY_BOOKING_ROUTE, RESCHEDULE_ROUTE } from '../booking/paths';
import type { AuthUser } from '../store/types';
import type { MailLinkBody } from './signIn';

/** The purpose a page of a mail link serves, from its path and query (null: not such a page). */
function purposeOf(pathname: string, search: URLSearchParams): string | null {
  if (pathname === RESCHEDULE_ROUTE) return 'reschedule';
  if (pathname !== MY_BOOKING_ROUTE) return null;
  return search.get('action') === 'cancel' ? 'cancel' : 'booking';
}

/** The link a page was opened with, when its address carries a token. */
export function mailLinkOf(pathname: string, search: string): MailLinkBody | null {
  const query = new URLSearchParams(search);
  const token = query.get(linkTokenParam);
  const appointmentId = query.get('id');
  const purpose = purposeOf(pathname, query);
  if (token === null || token === '' || appointmentId === null || purpose === null || !linkPurposes.includes(purpose)) return null;
  return { token, purpose, appointmentId };
}

/** The same page without the token (`?id=...&action=cancel` kept). */
export function withoutToken(pathname: string, search: string): string {
  const query = new URLSearchParams(search);
  query.delete(linkTokenParam);
  const rest = query.toString();
  return rest === '' ? pathname : `${pathname}?${rest}`;
}

/** Whether `user` is a mail link's session allowed `purpose` ("booking": reading, which every link allows). */
export function linkAllows(user: AuthUser | null, purpose: string): boolean {
  const link = user?.link;
  return link === undefined || purpose === 'booking' || link.purpose === purpose;
}
