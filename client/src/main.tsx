/**
 * Start-up (docs/product.md "Behaviours across screens"): bind store and i18n, then mount the interface once, on the
 * first authentication-state change. What a signed-out first screen does not need loads later (docs/benchmarks.md
 * "Client first load"): the realtime client and its bindings with the first signed-in state; the analytics client,
 * the connection notice and the rest of a client's translations when the browser is idle after the first render.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './App';
import { installErrorReporting, reportsUntilLoaded } from './analytics/reporting';
import { auth } from './auth/session';
import { installPreloadErrorHandler, showStartFailure, startApp } from './bootstrap';
import { Loading } from './components/Loading';
import { bindLocale, createAppI18n, loadNamespaces } from './i18n';
import { connectionNotice } from './presence/dialogs';
import { preloadScreens } from './router';
import { useAppStore } from './store';
import './styles.css';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 2000 });
  else window.setTimeout(task, 200);
}

function warnNotLoaded(what: string) {
  return (error: unknown) => {
    console.warn(`${what} not loaded`, error);
  };
}

installPreloadErrorHandler(window, {
  reload: () => {
    window.location.reload();
  },
  warn: (message, error) => {
    console.warn(message, error);
  },
  storage: sessionStorageOrNull(),
});

// Errors are kept from the start; they are sent once the analytics client has loaded.
const reports = reportsUntilLoaded();
installErrorReporting(window, reports);

/** The realtime client and its bindings (realtime/signedIn.ts), loaded once, with the first signed-in state. */
let signedIn: Promise<void> | null = null;
function bindWhenSignedIn(): void {
  signedIn ??= import('./realtime/signedIn').then(
    ({ bindSignedIn }) => {
      bindSignedIn();
    },
    (error: unknown) => {
      signedIn = null; // tried again at the next change of the signed-in person
      warnNotLoaded('the signed-in bindings')(error);
    },
  );
}

/** After the first render, when the browser is idle: what a page may need later, even offline. */
function loadTheRest(): void {
  // The rest of a client's translations and the connection notice: the notice must show, with
  // its words, even if the device goes offline on the first screen.
  loadNamespaces().catch(warnNotLoaded('translations'));
  connectionNotice.load().catch(warnNotLoaded('the connection notice'));
  import('./analytics').then(({ analytics }) => {
    reports.attach(analytics);
  }, warnNotLoaded('analytics'));
}

// The first screen's translations load while the session is read, and so does the code of the
// page opened, with the other translations it needs (router.tsx).
const i18nReady = createAppI18n(useAppStore.getState().locale);
const screensReady = preloadScreens(window.location.pathname);

startApp({
  onAuthStateChanged: (listener) => auth.onAuthStateChanged(listener),
  applyAuthState: (user) => {
    if (user === null) useAppStore.getState().reset(); // sign-out resets the store
    useAppStore.getState().setAuthUser(user);
    if (user !== null) bindWhenSignedIn();
  },
  mount: () => {
    const container = document.getElementById('root');
    if (!container) throw new Error('index.html has no #root element');
    void i18nReady.then(
      (i18n) => {
        bindLocale(i18n, useAppStore);
        // "Loading…" until the page's screens are there, then the page: rendered at once, not
        // through the frame's Suspense, which React would hold back for 300 ms after its
        // fallback (components/lazyScreen.tsx).
        const root = createRoot(container);
        root.render(
          <I18nextProvider i18n={i18n}>
            <Loading />
          </I18nextProvider>,
        );
        void screensReady.then(() => {
          root.render(
            <StrictMode>
              <App i18n={i18n} />
            </StrictMode>,
          );
          whenIdle(loadTheRest);
        });
      },
      (error: unknown) => {
        console.error('the first screen\'s translations did not load', error);
        showStartFailure(container, () => {
          window.location.reload();
        });
      },
    );
  },
});
