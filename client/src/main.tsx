/**
 * Start-up (docs/product.md "Behaviours across screens"): bind store, i18n and realtime, then mount the interface once, on
 * the first authentication-state change.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { analytics, installErrorReporting } from './analytics';
import { appVersion } from './appVersion';
import { auth } from './auth/session';
import { installPreloadErrorHandler, showStartFailure, startApp } from './bootstrap';
import { replaceWith } from './components/OutsideNavigation';
import { bindLocale, createAppI18n, loadNamespaces } from './i18n';
import { bindAfterSignIn } from './realtime/afterSignIn';
import { bindRealtime } from './realtime/bindings';
import { bindLinkedAppointment } from './realtime/linkedAppointment';
import { bindOutbox } from './realtime/outbox';
import { callFunction, outbox, realtime } from './realtime';
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

installPreloadErrorHandler(window, {
  reload: () => {
    window.location.reload();
  },
  warn: (message, error) => {
    console.warn(message, error);
  },
  storage: sessionStorageOrNull(),
});

installErrorReporting(window, analytics);

// The first screen's translations load while the session is read; each screen loads the others
// it needs (router.tsx).
const i18nReady = createAppI18n(useAppStore.getState().locale);
bindRealtime(realtime, useAppStore);
bindOutbox(outbox, useAppStore);
bindLinkedAppointment({
  store: useAppStore,
  call: callFunction,
  warn: (message, error) => {
    console.warn(message, error);
  },
});
bindAfterSignIn({
  store: useAppStore,
  realtime,
  call: callFunction,
  signOut: () => auth.signOut(),
  goToLogin: () => {
    replaceWith('/');
  },
  userAgent: navigator.userAgent,
  appVersion,
  route: () => window.location.pathname,
});

startApp({
  onAuthStateChanged: (listener) => auth.onAuthStateChanged(listener),
  applyAuthState: (user) => {
    if (user === null) useAppStore.getState().reset(); // sign-out resets the store
    useAppStore.getState().setAuthUser(user);
  },
  mount: () => {
    const container = document.getElementById('root');
    if (!container) throw new Error('index.html has no #root element');
    void i18nReady.then(
      (i18n) => {
        bindLocale(i18n, useAppStore);
        createRoot(container).render(
          <StrictMode>
            <App i18n={i18n} />
          </StrictMode>,
        );
        // Then, when the browser is idle, the rest of a client's translations: the connection
        // notice must have its words even if the device goes offline on the first screen.
        whenIdle(() => {
          loadNamespaces().catch((error: unknown) => {
            console.warn('translations not preloaded', error);
          });
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
