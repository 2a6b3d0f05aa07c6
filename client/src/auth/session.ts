/**
 * The authentication state of the app, with Firebase's onAuthStateChanged semantics: the first
 * resolution of the session fires the first change; later sign-ins and sign-outs fire again.
 *
 * Server endpoints: GET /auth/session -> {"data": {uid, email, role, clinicId} | null}
 * (cookie or bearer), POST /auth/sign-out (PROTOCOL.md section 2), and, until e-mail-link
 * sign-in lands, the development-only POST /dev/token {"data": {"email"}} ->
 * {"data": {uid, email, token}}.
 */
import type { AuthUser } from '../store/types';
import { getToken as readToken, setToken as writeToken } from './token';

export type AuthListener = (user: AuthUser | null) => void;

export interface AuthDeps {
  fetch: typeof globalThis.fetch;
  getToken: () => string | null;
  setToken: (token: string | null) => void;
  /** Reports a session check that failed for a reason other than being signed out. */
  warn?: (message: string, error?: unknown) => void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optionalString = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `{"data": {...} | null}` -> the user, null when signed out, undefined when malformed. */
export function parseSessionReply(body: unknown): AuthUser | null | undefined {
  if (!isRecord(body) || !('data' in body)) return undefined;
  const { data } = body;
  if (data === null) return null;
  if (!isRecord(data) || typeof data.uid !== 'string' || typeof data.email !== 'string') return undefined;
  return { uid: data.uid, email: data.email, role: optionalString(data.role), clinicId: optionalString(data.clinicId) };
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

  /** Development and test mode only: signs in by e-mail address without a link. */
  async signInWithDevToken(email: string): Promise<AuthUser> {
    const response = await this.deps.fetch('/dev/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { email } }),
      credentials: 'include',
    });
    const body: unknown = await response.json().catch(() => null);
    const data = isRecord(body) && isRecord(body.data) ? body.data : null;
    if (!response.ok || !data || typeof data.token !== 'string' || typeof data.uid !== 'string') {
      throw new Error(`Development sign-in failed (HTTP ${String(response.status)})`);
    }
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

  /** Revokes the session on the server (best effort) and signs out here in any case. */
  async signOut(): Promise<void> {
    const token = this.deps.getToken();
    this.deps.setToken(null);
    try {
      await this.deps.fetch('/auth/sign-out', {
        method: 'POST',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: 'include',
      });
    } catch (error) {
      this.deps.warn?.('Sign-out could not reach the server', error);
    }
    this.publish(null);
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
    const changed = this.user?.uid !== user?.uid || this.user?.role !== user?.role || this.user?.clinicId !== user?.clinicId;
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
