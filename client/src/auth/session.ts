/**
 * The authentication state of the app, with Firebase's onAuthStateChanged semantics: the first
 * resolution of the session fires the first change; later sign-ins and sign-outs fire again.
 *
 * Server endpoints (docs/protocol.md "Sign-in by e-mail link"): GET /auth/session -> {"data": {uid, email, role,
 * clinicId, counselorId?, secondFactor?} | null} (cookie or bearer); POST /auth/confirm {email, token} -> {"data": {uid,
 * email, token}} plus the HttpOnly session cookie; POST /auth/totp {code} (staff's second factor); POST /auth/sign-out.
 */
import { codeForHttpStatus } from '../contract';
import { errorFromWire, FunctionsError } from '../realtime/errors';
import type { AuthUser, LinkGrant, SecondFactorState } from '../store/types';
import { getToken as readToken, setToken as writeToken } from './token';
import { isRecord } from '../isRecord';

export type AuthListener = (user: AuthUser | null) => void;

export interface AuthDeps {
  fetch: typeof globalThis.fetch;
  getToken: () => string | null;
  setToken: (token: string | null) => void;
  /** Reports a session check that failed for a reason other than being signed out. */
  warn?: (message: string, error?: unknown) => void;
}

const optionalString = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `{"data": {...} | null}` -> the user, null when signed out, undefined when malformed. */
export function parseSessionReply(body: unknown): AuthUser | null | undefined {
  if (!isRecord(body) || !('data' in body)) return undefined;
  const { data } = body;
  if (data === null) return null;
  if (!isRecord(data) || typeof data.uid !== 'string' || typeof data.email !== 'string') return undefined;
  const user: AuthUser = { uid: data.uid, email: data.email, role: optionalString(data.role), clinicId: optionalString(data.clinicId) };
  const counselorId = optionalString(data.counselorId);
  if (counselorId !== null) user.counselorId = counselorId;
  const secondFactor = parseSecondFactor(data.secondFactor);
  if (secondFactor !== null) user.secondFactor = secondFactor;
  const link = parseLink(data.link);
  if (link !== null) user.link = link;
  return user;
}

function parseLink(value: unknown): LinkGrant | null {
  if (!isRecord(value) || typeof value.purpose !== 'string' || typeof value.appointmentId !== 'string') return null;
  return { purpose: value.purpose, appointmentId: value.appointmentId, expiresAt: optionalString(value.expiresAt) };
}

/** What the client posts for a booking mail's link (POST /auth/link). */
export interface MailLinkBody {
  token: string;
  purpose: string;
  appointmentId: string;
}

function parseSecondFactor(value: unknown): SecondFactorState | null {
  return value === 'required' || value === 'enrol' || value === 'ok' ? value : null;
}

export class AuthClient {
  private user: AuthUser | null = null;
  private resolved = false;
  private readonly listeners = new Set<AuthListener>();
  private starting: Promise<void> | null = null;

  constructor(private readonly deps: AuthDeps) {}

  get currentUser(): AuthUser | null {
    return this.user;
  }

  /** The bearer token, when one is known (the cookie needs none). */
  get token(): string | null {
    return this.deps.getToken();
  }

  /**
   * Calls `listener` with every change of the signed-in user. If the first state is already
   * known it is delivered right away (asynchronously), as Firebase does.
   */
  onAuthStateChanged(listener: AuthListener): () => void {
    this.listeners.add(listener);
    if (this.resolved) {
      queueMicrotask(() => {
        if (this.listeners.has(listener)) listener(this.user);
      });
    }
    void this.start();
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Resolves the session once (idempotent). */
  start(): Promise<void> {
    this.starting ??= this.fetchSession().then((user) => {
      this.publish(user);
    });
    return this.starting;
  }

  /**
   * Signs in with the token of an e-mail link and the address it was sent to. Rejects with a
   * FunctionsError: `invalid-argument` with details.reason "link-invalid" for a used, expired
   * or mismatched link.
   */
  async confirmEmailLink(email: string, linkToken: string): Promise<AuthUser> {
    let response: Response;
    try {
      response = await this.deps.fetch('/auth/confirm', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, token: linkToken }),
        credentials: 'include',
      });
    } catch {
      throw new FunctionsError('unavailable', 'Network request failed.');
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const code = codeForHttpStatus(response.status);
      throw errorFromWire(body, response.status) ?? new FunctionsError(code, code);
    }
    const data = isRecord(body) && isRecord(body.data) ? body.data : null;
    if (!data || typeof data.uid !== 'string' || typeof data.token !== 'string') {
      throw new FunctionsError('internal', 'Response is missing data field.');
    }
    // The cookie keeps the session; the bearer serves this page where cookies are blocked.
    this.deps.setToken(data.token);
    const user = (await this.fetchSession()) ?? {
      uid: data.uid,
      email: typeof data.email === 'string' ? data.email : email,
      role: null,
      clinicId: null,
    };
    await this.start();
    this.publish(user);
    return user;
  }

  /**
   * A booking mail's signed link: `POST /auth/link` `{token, purpose, appointmentId}`. Signed
   * out (or in another link's session), the server opens a session scoped to that appointment
   * and purpose (cookie and bearer, as a sign-in); signed in as the link's owner nothing
   * changes. Rejects with a FunctionsError: `invalid-argument` with details.reason
   * "booking-link-invalid", `permission-denied` with "other-account".
   */
  async openMailLink(link: MailLinkBody): Promise<AuthUser | null> {
    const token = this.deps.getToken();
    let response: Response;
    try {
      response = await this.deps.fetch('/auth/link', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(link),
        credentials: 'include',
      });
    } catch {
      throw new FunctionsError('unavailable', 'Network request failed.');
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const code = codeForHttpStatus(response.status);
      throw errorFromWire(body, response.status) ?? new FunctionsError(code, code);
    }
    const data = isRecord(body) && isRecord(body.data) ? body.data : null;
    if (data === null) throw new FunctionsError('internal', 'Response is missing data field.');
    if (typeof data.token !== 'string') return this.user; // the owner's own session covers it
    this.deps.setToken(data.token);
    const user = await this.fetchSession();
    await this.start();
    this.publish(user);
    return user;
  }

  /**
   * The staff second factor: `POST /auth/totp` `{code}` (a TOTP code or a recovery code), sent
   * like `/auth/confirm` plus the bearer when one is known. On 200 the same session is fully
   * authorised: the user's `secondFactor` becomes "ok" (listeners are told). Rejects with a
   * FunctionsError carrying the server's message (401 `unauthenticated` for a wrong code).
   */
  async verifySecondFactor(code: string): Promise<AuthUser | null> {
    const token = this.deps.getToken();
    let response: Response;
    try {
      response = await this.deps.fetch('/auth/totp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ code }),
        credentials: 'include',
      });
    } catch {
      throw new FunctionsError('unavailable', 'Network request failed.');
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const status = codeForHttpStatus(response.status);
      throw errorFromWire(body, response.status) ?? new FunctionsError(status, status);
    }
    const data = isRecord(body) && isRecord(body.data) ? body.data : null;
    if (data?.secondFactor !== 'ok') throw new FunctionsError('internal', 'Response is missing data field.');
    const base = this.user ?? (await this.fetchSession());
    const user = base === null ? null : { ...base, secondFactor: 'ok' as const };
    this.publish(user);
    return user;
  }

  /**
   * Signs out here at once (listeners reset the store and close the socket), then revokes the
   * session on the server, best effort: its cookie and bearer alike.
   */
  async signOut(): Promise<void> {
    const token = this.deps.getToken();
    this.deps.setToken(null);
    this.publish(null);
    try {
      await this.deps.fetch('/auth/sign-out', {
        method: 'POST',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: 'include',
      });
    } catch (error) {
      this.deps.warn?.('Sign-out could not reach the server', error);
    }
  }

  private async fetchSession(): Promise<AuthUser | null> {
    const token = this.deps.getToken();
    try {
      const response = await this.deps.fetch('/auth/session', {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: 'include',
      });
      if (response.status === 401 || response.status === 403) {
        this.deps.setToken(null); // revoked or expired
        return null;
      }
      const user = parseSessionReply(await response.json().catch(() => undefined));
      if (!response.ok || user === undefined) {
        this.deps.warn?.(`Session check failed (HTTP ${String(response.status)})`);
        return null;
      }
      if (user === null && token) this.deps.setToken(null);
      return user;
    } catch (error) {
      // Unreachable server: start signed out, but keep the token for the next page load.
      this.deps.warn?.('Session check could not reach the server', error);
      return null;
    }
  }

  private publish(user: AuthUser | null): void {
    const first = !this.resolved;
    const changed =
      this.user?.uid !== user?.uid ||
      this.user?.role !== user?.role ||
      this.user?.clinicId !== user?.clinicId ||
      this.user?.counselorId !== user?.counselorId ||
      this.user?.secondFactor !== user?.secondFactor ||
      this.user?.link?.appointmentId !== user?.link?.appointmentId ||
      this.user?.link?.purpose !== user?.link?.purpose;
    this.resolved = true;
    this.user = user;
    if (!first && !changed) return;
    for (const listener of [...this.listeners]) listener(user);
  }
}

/** The app's authentication client. */
export const auth = new AuthClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  getToken: readToken,
  setToken: writeToken,
  warn: (message, error) => {
    console.warn(message, error);
  },
});
