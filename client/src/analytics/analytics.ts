/**
 * First-party analytics through the `analytics-log` function (docs/product.md "Calls the client makes"): the `login`
 * event after an e-mail-link sign-in, and unhandled window errors as `exception` events.
 *
 * Nothing personal goes out: no e-mail address, uid, intake data or URL with a token. An
 * exception's description is the error's message only, with anything that looks like an
 * address, a token or a query string blanked, cut to 500 characters. Exceptions are
 * deduplicated and throttled, so an error loop cannot flood the server; analytics failures
 * are swallowed (an analytics error must never raise another one).
 */
import type { CallFunction } from '../realtime/callable';
import { MAX_EXCEPTIONS_PER_PAGE } from './reporting';

export const ANALYTICS_FUNCTION = 'analytics-log';
export const MAX_DESCRIPTION_LENGTH = 500;

export interface AnalyticsDeps {
  call: CallFunction;
  now?: () => number;
  /** At most this many exception events per window (default 5 per 60 s)... */
  maxExceptionsPerWindow?: number;
  windowMs?: number;
  /** ...and at most this many per page load (default 20). */
  maxExceptionsPerPage?: number;
}

export interface Analytics {
  /** The `login` event: method email-link-authentication, the page's host name. */
  logLogin(hostname: string): void;
  /** An `exception` event; false when it was dropped (repeated or throttled). */
  logException(error: unknown, fatal: boolean): boolean;
}

/** Blanks what could identify a person or open a session, then cuts to 500 characters. */
export function sanitizeDescription(text: string): string {
  const cleaned = text
    .replace(/[^\s@<>()"',;:]+@[^\s@<>()"',;:]+/g, '[email]')
    .replace(/([?&#](?:token|oobCode|apiKey|sessionId|email)=)[^&#\s]*/gi, '$1[redacted]')
    .replace(/(https?:\/\/[^\s?#]*)[?#][^\s]*/gi, '$1')
    .replace(/\b(Bearer\s+)\S+/gi, '$1[redacted]')
    .trim();
  return cleaned.slice(0, MAX_DESCRIPTION_LENGTH);
}

/** The message of what was thrown; never a serialised object (it could hold anything). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message ? `${error.name}: ${error.message}` : error.name;
  if (typeof error === 'string') return error;
  return 'Non-error value thrown';
}

export function createAnalytics(deps: AnalyticsDeps): Analytics {
  const now = deps.now ?? Date.now;
  const perWindow = deps.maxExceptionsPerWindow ?? 5;
  const windowMs = deps.windowMs ?? 60_000;
  const perPage = deps.maxExceptionsPerPage ?? MAX_EXCEPTIONS_PER_PAGE;
  const seen = new Set<string>();
  let recent: number[] = [];
  let sent = 0;

  const send = (data: unknown) => {
    deps.call(ANALYTICS_FUNCTION, data, { maxAttempts: 1 }).catch(() => undefined);
  };

  return {
    logLogin(hostname) {
      send({ name: 'login', params: { method: 'email-link-authentication', hostname } });
    },

    logException(error, fatal) {
      const description = sanitizeDescription(describeError(error)) || 'Unknown error';
      if (seen.has(description) || sent >= perPage) return false;
      const at = now();
      recent = recent.filter((time) => at - time < windowMs);
      if (recent.length >= perWindow) return false;
      seen.add(description);
      recent.push(at);
      sent += 1;
      send({ name: 'exception', params: { description, fatal } });
      return true;
    },
  };
}
