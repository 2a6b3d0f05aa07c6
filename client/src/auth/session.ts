/**
 * The authentication state of the app, with Firebase's onAuthStateChanged semantics: the first
 * resolution of the session fires the first change; later sign-ins and sign-outs fire again.
 * The sign-in requests themselves are in signIn.ts, loaded with the screens that make them
 * rather than with the first screen (docs/benchmarks.md "Client first load").
 *
 * Server endpoints (docs/protocol.md "Sign-in by e-mail link"): GET /auth/session -> {"data": {uid, email, role,
 * clinicId, counselorId?, secondFactor?} | null} (cookie or bearer); POST /auth/confirm {email, token} -> {"data": {uid,
 * email, token}} plus the HttpOnly session cookie; POST /auth/totp {code} (staff's second factor); POST /auth/sign-out.
 */
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

function parseSecondFactor(value: unknown): SecondFactorState | null {
  return value === 'required' || value === 'enrol' || value === 'ok' ? value : null;
}

export class AuthClient {
  private user: AuthUser | null = null;
  private resolved = false;
  private readonly listeners = new Set<AuthListener>();
  private starting: Promise<void> | null = null;

  constructor(readonly deps: AuthDeps) {}

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

  /** GET /auth/session: who is signed in (null when nobody is, or the server cannot tell). */
  async fetchSession(): Promise<AuthUser | null> {
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

  /**
   * Records who is signed in now and tells the listeners when that changed (the first time,
   * always): the session's first resolution, a sign-out, a sign-in (signIn.ts).
   */
  publish(user: AuthUser | null): void {
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
