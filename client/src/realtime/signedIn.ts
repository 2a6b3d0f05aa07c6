/**
 * What runs once someone has signed in, loaded with the first signed-in state (main.tsx) rather
 * than with the first screen, which a signed-out visitor sees without it (docs/benchmarks.md
 * "Client first load"): the realtime client, given to the frame's presence behaviours, and its
 * bindings to the store (bindings.ts, outbox.ts, linkedAppointment.ts, afterSignIn.ts). Each
 * binding starts from the store's current state, so binding after the sign-in misses nothing;
 * they stay bound for every later sign-out and sign-in of the page.
 */
import { appVersion } from '../appVersion';
import { auth } from '../auth/session';
import { replaceWith } from '../components/OutsideNavigation';
import { attachRealtime } from '../presence/deps';
import { useAppStore } from '../store';
import { bindAfterSignIn } from './afterSignIn';
import { bindRealtime } from './bindings';
import { callFunction, outbox, realtime } from './index';
import { bindLinkedAppointment } from './linkedAppointment';
import { bindOutbox } from './outbox';

const warn = (message: string, error?: unknown) => {
  console.warn(message, error);
};

export function bindSignedIn(): void {
  attachRealtime(realtime);
  bindRealtime(realtime, useAppStore);
  bindOutbox(outbox, useAppStore);
  bindLinkedAppointment({ store: useAppStore, call: callFunction, warn });
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
}
