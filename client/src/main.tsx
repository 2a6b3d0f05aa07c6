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
import { installPreloadErrorHandler, startApp } from './bootstrap';
import { bindLocale, createI18n } from './i18n';
import { bindAfterSignIn } from './realtime/afterSignIn';
import { bindRealtime } from './realtime/bindings';
import { bindOutbox } from './realtime/outbox';
import { callFunction, outbox, realtime } from './realtime';
import { createAppRouter } from './router';
import { useAppStore } from './store';
import './styles.css';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
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

const i18n = createI18n(useAppStore.getState().locale);
bindLocale(i18n, useAppStore);
bindRealtime(realtime, useAppStore);
bindOutbox(outbox, useAppStore);
const router = createAppRouter();
bindAfterSignIn({
  store: useAppStore,
  realtime,
  call: callFunction,
  signOut: () => auth.signOut(),
  goToLogin: () => {
    void router.navigate('/', { replace: true });
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
    createRoot(container).render(
      <StrictMode>
        <App i18n={i18n} router={router} />
      </StrictMode>,
    );
  },
});
