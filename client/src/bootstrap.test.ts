import { describe, expect, it, vi } from 'vitest';
import { AuthClient } from './auth/session';
import { confirmEmailLink } from './auth/signIn';
import { START_FAILURE, installPreloadErrorHandler, showStartFailure, startApp } from './bootstrap';

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('startApp', () => {
  it('mounts once, on the first auth-state change, and records every change', async () => {
    let token: string | null = null;
    const fetch = vi.fn<typeof globalThis.fetch>(async (input) => {
      const url = urlOf(input);
      if (url === '/auth/session') {
        return jsonResponse({ data: token ? { uid: 'u1', email: 'a@example.com', role: null, clinicId: null } : null });
      }
      if (url === '/auth/confirm') return jsonResponse({ data: { uid: 'u1', email: 'a@example.com', token: 't1' } });
      return jsonResponse({ data: null });
    });
    const auth = new AuthClient({ fetch, getToken: () => token, setToken: (t) => (token = t) });
    const mount = vi.fn();
    const states: (string | null)[] = [];

    startApp({
      onAuthStateChanged: (listener) => auth.onAuthStateChanged(listener),
      applyAuthState: (user) => states.push(user?.uid ?? null),
      mount,
    });
    expect(mount).not.toHaveBeenCalled();

    await auth.start();
    expect(mount).toHaveBeenCalledTimes(1);
    expect(states).toEqual([null]);

    await confirmEmailLink(auth, 'a@example.com', 'link-token');
    await auth.signOut();
    expect(states).toEqual([null, 'u1', null]);
    expect(mount).toHaveBeenCalledTimes(1);
  });

  it('sends the bearer token to the session check and keeps the signed-in user', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      jsonResponse({ data: { uid: 'u9', email: 'b@example.com', role: 'staff', clinicId: 'demo-clinic' } }),
    );
    const auth = new AuthClient({ fetch, getToken: () => 'tok', setToken: () => undefined });
    const seen: unknown[] = [];
    auth.onAuthStateChanged((user) => seen.push(user));
    await auth.start();
    expect(seen).toEqual([{ uid: 'u9', email: 'b@example.com', role: 'staff', clinicId: 'demo-clinic' }]);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/auth/session');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
    expect(init?.credentials).toBe('include');
  });

  it('still mounts (signed out) when the server cannot be reached', async () => {
    const auth = new AuthClient({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      getToken: () => null,
      setToken: () => undefined,
    });
    const mount = vi.fn();
    startApp({ onAuthStateChanged: (l) => auth.onAuthStateChanged(l), applyAuthState: () => undefined, mount });
    await auth.start();
    expect(mount).toHaveBeenCalledTimes(1);
  });

  it('drops a token the server no longer accepts', async () => {
    let token: string | null = 'revoked';
    const auth = new AuthClient({
      fetch: () => Promise.resolve(jsonResponse({ error: { status: 'UNAUTHENTICATED', message: 'no' } }, 401)),
      getToken: () => token,
      setToken: (t) => (token = t),
    });
    await auth.start();
    expect(auth.currentUser).toBeNull();
    expect(token).toBeNull();
  });
});

describe('installPreloadErrorHandler', () => {
  function preloadError() {
    return new Event('vite:preloadError', { cancelable: true });
  }

  it('prevents the default handling, warns and reloads', () => {
    const target = new EventTarget();
    const reload = vi.fn();
    const warn = vi.fn();
    installPreloadErrorHandler(target, { reload, warn, storage: null });
    const event = preloadError();
    target.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload in a loop when the chunk is still missing right after a reload', () => {
    const target = new EventTarget();
    const reload = vi.fn();
    const values = new Map<string, string>();
    const storage = { getItem: (k: string) => values.get(k) ?? null, setItem: (k: string, v: string) => void values.set(k, v) };
    let clock = 1_000_000;
    installPreloadErrorHandler(target, { reload, warn: () => undefined, storage, now: () => clock });
    target.dispatchEvent(preloadError());
    clock += 2_000;
    const second = preloadError();
    target.dispatchEvent(second);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(second.defaultPrevented).toBe(false);
    clock += 60_000;
    target.dispatchEvent(preloadError());
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('showStartFailure', () => {
  it('says in both languages that the page could not load, and offers to try again', () => {
    const container = document.createElement('div');
    container.textContent = 'stale';
    const reload = vi.fn();
    showStartFailure(container, reload);
    const alert = container.querySelector('[role="alert"]');
    expect(container.querySelector('p[lang="ja"]')?.textContent).toBe(START_FAILURE.ja);
    expect(container.querySelector('p[lang="en"]')?.textContent).toBe(START_FAILURE.en);
    expect(alert?.textContent).not.toContain('stale');
    container.querySelector('button')?.click();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
