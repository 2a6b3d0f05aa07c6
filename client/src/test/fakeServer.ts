import { vi } from 'vitest';
import { auth } from '../auth/session';
import { useAppStore } from '../store';

type Handler = (body: unknown) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A function's reply `{"data": ...}`. */
export const reply = (data: unknown) => json({ data });

/** A callable error reply `{"error": {status, message, details?}}` with its HTTP status. */
export function refuse(status: string, httpStatus: number, message: string, details?: unknown): Response {
  return json({ error: { status, message, ...(details === undefined ? {} : { details }) } }, httpStatus);
}

export interface FakeServer {
  /** Every request in order: its path and its JSON body. */
  requests: { url: string; method: string; body: unknown }[];
  /** The `data` of each call of one function. */
  calls: (name: string) => unknown[];
  /** Sets (or replaces) the answer of a path, e.g. '/functions/clinic-read'. */
  on: (url: string, handler: Handler) => void;
}

/**
 * Stands in for the Python server behind `fetch` (restored after each test by vitest's
 * unstubGlobals). Unknown paths answer 404 NOT_FOUND, as the server does. The session
 * endpoints follow the sign-ins and sign-outs made through it.
 */
export function fakeServer(handlers: Record<string, Handler> = {}): FakeServer {
  const routes = new Map<string, Handler>(Object.entries(handlers));
  const requests: FakeServer['requests'] = [];
  let session: Record<string, unknown> | null = null;
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ url, method: init?.method ?? 'GET', body });
    const handler = routes.get(url);
    if (handler) {
      const response = await handler(body);
      if (url === '/auth/confirm' && response.ok) {
        const { data } = (await response.clone().json()) as { data: Record<string, unknown> };
        session = { uid: data.uid, email: data.email, role: 'client', clinicId: null };
      }
      return response;
    }
    if (url === '/auth/session') return reply(session);
    if (url === '/auth/sign-out') {
      session = null;
      return reply({ signedOut: true });
    }
    return refuse('NOT_FOUND', 404, 'Not found.');
  });
  vi.stubGlobal('fetch', fetch);
  return {
    requests,
    calls: (name) =>
      requests.filter((r) => r.url === `/functions/${name}`).map((r) => (r.body as { data: unknown }).data),
    on: (url, handler) => {
      routes.set(url, handler);
    },
  };
}

let bound = false;

/**
 * Feeds the app's auth client into the store, as main.tsx does (once per test file), after its
 * first session check (call it once a fake server is in place).
 */
export async function bindAuthToStore(): Promise<void> {
  if (!bound) {
    bound = true;
    auth.onAuthStateChanged((user) => {
      if (user === null) useAppStore.getState().reset();
      useAppStore.getState().setAuthUser(user);
    });
  }
  await auth.start();
}
