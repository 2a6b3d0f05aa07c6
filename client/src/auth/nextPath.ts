/**
 * Where a sign-in may lead: only a path of this app (contract.json "clientRoutes"), with its
 * query, never another site. A mail's link (`/b/booking?id=...&action=cancel`) opened while
 * signed out travels through the login screen's `?next=` and, while the e-mailed sign-in link
 * is on its way, this device's storage (auth/emailLink.ts); both are read through
 * `safeNextPath`, as anything in an address bar or storage may have been written by someone else.
 */
import { clientRoutes } from '../contract';

/** Query parameter of `/` that names where to go after signing in. */
export const NEXT_PARAM = 'next';

/** A stand-in origin to resolve a path against: anything that leaves it is another site. */
const SAME_ORIGIN = 'https://app.invalid';

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** Whether `pathname` is one of the client's routes (`:param` matches one segment). */
export function isClientPath(pathname: string): boolean {
  const parts = segments(pathname);
  return clientRoutes.some((route) => {
    const pattern = segments(route);
    return pattern.length === parts.length && pattern.every((part, i) => part.startsWith(':') || part === parts[i]);
  });
}

/** `value` as a same-app path with its query ("/b/booking?id=a1"), or null when it is anything else. */
export function safeNextPath(value: string | null | undefined): string | null {
  // "//host" and "/\host" are other sites to a browser.
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(value, SAME_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== SAME_ORIGIN || !isClientPath(url.pathname)) return null;
  return `${url.pathname}${url.search}`;
}

/**
 * Where to go after signing in: `?next=` when it is a path of this app, else the one this
 * device remembered when the sign-in link was asked for (auth/emailLink.ts), else the first
 * step (which sends a booked person on to My booking, booking/landing.ts).
 */
export function nextPathAfterSignIn(search: URLSearchParams, fallback = '/b/clinic', remembered: string | null = null): string {
  // Only same-app paths: "//evil.example" or "https://..." must never be followed.
  return safeNextPath(search.get(NEXT_PARAM)) ?? safeNextPath(remembered) ?? fallback;
}
