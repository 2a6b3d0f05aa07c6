/**
 * Test helpers of the presence behaviours: a fake realtime client (presence part), a window
 * whose `navigator.onLine` the test sets, and the layout rendered in a memory router with
 * plain (not lazy) pages, so that fake timers drive everything.
 */
import { act, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { Layout } from '../components/Layout';
import { bindLocale } from '../i18n';
import { createI18n } from '../i18n/bundled';
import type { Locale } from '../i18n/locale';
import type { SessionNotice } from '../realtime/events';
import { useAppStore } from '../store';
import type { AuthUser } from '../store/types';
import { inMemoryRouter } from './memoryRouter';
import { PresenceContext, type PresenceDeps } from '../presence/deps';
import { connectionNotice, inactivityWarning } from '../presence/dialogs';

export const hanako: AuthUser = { uid: 'u1', email: 'hanako@example.com', role: 'client', clinicId: null };

export function fakePresence() {
  const sessionListeners = new Set<(notice: SessionNotice) => void>();
  const readyListeners = new Set<(ready: boolean) => void>();
  const world = { online: true, ready: true, open: false };
  const realtime = {
    activity: vi.fn<(step?: string) => void>(),
    reconnect: vi.fn<() => void>(),
    isOpen: () => world.open,
    isReady: () => world.ready,
    onSession(listener: (notice: SessionNotice) => void) {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
    onReadyChange(listener: (ready: boolean) => void) {
      readyListeners.add(listener);
      return () => readyListeners.delete(listener);
    },
  };
  const signOut = vi.fn(() => {
    useAppStore.getState().reset();
    useAppStore.getState().setAuthUser(null);
    return Promise.resolve();
  });
  const deps: PresenceDeps = {
    realtime,
    signOut,
    window: {
      addEventListener: window.addEventListener.bind(window),
      removeEventListener: window.removeEventListener.bind(window),
      navigator: {
        get onLine() {
          return world.online;
        },
      } as Navigator,
    },
  };
  return {
    deps,
    realtime,
    signOut,
    world,
    /** The server pushes a `session` event. */
    session(notice: SessionNotice) {
      for (const listener of [...sessionListeners]) listener(notice);
    },
    /** The browser goes offline or online (its event included). */
    setOnline(online: boolean) {
      world.online = online;
      window.dispatchEvent(new Event(online ? 'online' : 'offline'));
    },
    setReady(ready: boolean) {
      world.ready = ready;
      for (const listener of [...readyListeners]) listener(ready);
    },
  };
}

/** The layout around a page at `path` (and a login page at `/`). */
export function renderLayout(
  presence: ReturnType<typeof fakePresence>,
  { path = '/b/family', user = null, locale = 'en' }: { path?: string; user?: AuthUser | null; locale?: Locale } = {},
) {
  useAppStore.getState().reset();
  useAppStore.getState().setAuthUser(user);
  useAppStore.getState().setLocale(locale);
  const i18n = createI18n(locale);
  const unbind = bindLocale(i18n, useAppStore);
  const { element, router } = inMemoryRouter(
    <Routes>
      <Route path="/" element={<Layout />}>
        <Route index element={<h1>Login page</h1>} />
        <Route
          path="*"
          element={
            <>
              <h1>Some page</h1>
              <label>
                Answer <input name="answer" />
              </label>
            </>
          }
        />
      </Route>
    </Routes>,
    [path],
  );
  const view = render(
    <PresenceContext value={presence.deps}>
      <I18nextProvider i18n={i18n}>{element}</I18nextProvider>
    </PresenceContext>,
  );
  return {
    ...view,
    router,
    unmount: () => {
      view.unmount();
      unbind();
    },
  };
}

/**
 * For a file of Layout tests: the notice and the countdown loaded first (as the app does after
 * the first screen and at sign-in), fake timers around each test, the Layout rendered by
 * `render` unmounted after it, and `advance` to move the fake clock inside act().
 */
export function layoutTests() {
  let view: ReturnType<typeof renderLayout> | undefined;
  beforeAll(async () => {
    await Promise.all([connectionNotice.load(), inactivityWarning.load()]);
  });
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    view?.unmount();
    view = undefined;
    vi.useRealTimers();
  });
  return {
    render: (...args: Parameters<typeof renderLayout>) => (view = renderLayout(...args)),
    advance: (ms: number) => {
      act(() => {
        vi.advanceTimersByTime(ms);
      });
    },
  };
}
