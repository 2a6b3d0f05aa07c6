/**
 * The sign-in requests (docs/protocol.md "Sign-in by e-mail link"), apart from the session
 * (session.ts) that every page reads: these are made by a few screens only (the link's
 * confirmation page, a booking mail's link, the staff's second factor), so they load with
 * those screens, not with the first one (docs/benchmarks.md "Client first load"). Each one
 * ends by telling the session's listeners who is signed in now.
 */
import { codeForHttpStatus } from '../contract';
import { isRecord } from '../isRecord';
import { errorFromWire, FunctionsError } from '../realtime/errors';
import type { AuthUser } from '../store/types';
import type { AuthClient } from './session';

/** What the client posts for a booking mail's link (POST /auth/link). */
export interface MailLinkBody {
  token: string;
  purpose: string;
  appointmentId: string;
}

/**
 * POSTs `body` as JSON to an /auth/ path, with the cookie, and with the bearer when asked and
 * known. Resolves to the reply's `data` (null when it has none); rejects with a FunctionsError:
 * `unavailable` when the server cannot be reached, else the server's error (or the one its
 * HTTP status stands for).
 */
async function post(client: AuthClient, path: string, body: unknown, { bearer }: { bearer: boolean }) {
  const token = bearer ? client.deps.getToken() : null;
  let response: Response;
  try {
    response = await client.deps.fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      credentials: 'include',
    });
  } catch {
    throw new FunctionsError('unavailable', 'Network request failed.');
  }
  const reply: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const code = codeForHttpStatus(response.status);
    throw errorFromWire(reply, response.status) ?? new FunctionsError(code, code);
  }
  return isRecord(reply) && isRecord(reply.data) ? reply.data : null;
}

/**
 * Signs in with the token of an e-mail link and the address it was sent to
 * (`POST /auth/confirm`). Rejects with a FunctionsError: `invalid-argument` with
 * details.reason "link-invalid" for a used, expired or mismatched link.
 */
export async function confirmEmailLink(client: AuthClient, email: string, linkToken: string): Promise<AuthUser> {
  const data = await post(client, '/auth/confirm', { email, token: linkToken }, { bearer: false });
  if (!data || typeof data.uid !== 'string' || typeof data.token !== 'string') {
    throw new FunctionsError('internal', 'Response is missing data field.');
  }
  // The cookie keeps the session; the bearer serves this page where cookies are blocked.
  client.deps.setToken(data.token);
  const user = (await client.fetchSession()) ?? {
    uid: data.uid,
    email: typeof data.email === 'string' ? data.email : email,
    role: null,
    clinicId: null,
  };
  await client.start();
  client.publish(user);
  return user;
}

/**
 * A booking mail's signed link: `POST /auth/link` `{token, purpose, appointmentId}`. Signed
 * out (or in another link's session), the server opens a session scoped to that appointment
 * and purpose (cookie and bearer, as a sign-in); signed in as the link's owner nothing
 * changes. Rejects with a FunctionsError: `invalid-argument` with details.reason
 * "booking-link-invalid", `permission-denied` with "other-account".
 */
export async function openMailLink(client: AuthClient, link: MailLinkBody): Promise<AuthUser | null> {
  const data = await post(client, '/auth/link', link, { bearer: true });
  if (data === null) throw new FunctionsError('internal', 'Response is missing data field.');
  if (typeof data.token !== 'string') return client.currentUser; // the owner's own session covers it
  client.deps.setToken(data.token);
  const user = await client.fetchSession();
  await client.start();
  client.publish(user);
  return user;
}

/**
 * The staff second factor: `POST /auth/totp` `{code}` (a TOTP code or a recovery code), with
 * the bearer when one is known. On 200 the same session is fully authorised: the user's
 * `secondFactor` becomes "ok" (listeners are told). Rejects with a FunctionsError carrying the
 * server's message (401 `unauthenticated` for a wrong code).
 */
export async function verifySecondFactor(client: AuthClient, code: string): Promise<AuthUser | null> {
  const data = await post(client, '/auth/totp', { code }, { bearer: true });
  if (data?.secondFactor !== 'ok') throw new FunctionsError('internal', 'Response is missing data field.');
  const base = client.currentUser ?? (await client.fetchSession());
  const user = base === null ? null : { ...base, secondFactor: 'ok' as const };
  client.publish(user);
  return user;
}
