/**
 * What the presence behaviours (inactivity countdown, offline dialog) need from the app: the
 * realtime client's presence part, sign-out and the browser window. The app's own by default;
 * tests provide fakes through `PresenceContext`.
 */
import { createContext } from 'react';
import { auth } from '../auth/session';
import type { RealtimeClient } from '../realtime/client';
import type { SessionNotice } from '../realtime/events';

export type PresenceRealtime = Pick<
  RealtimeClient,
  'activity' | 'onSession' | 'isReady' | 'onReadyChange' | 'reconnect' | 'isOpen'
>;

export interface PresenceDeps {
  realtime: PresenceRealtime;
  /** Signs out (the store is reset once it resolves). */
  signOut: () => Promise<void>;
  /** Where activity and online/offline events are heard, and `navigator.onLine` read. */
  window: Pick<Window, 'addEventListener' | 'removeEventListener' | 'navigator'>;
}

let attached: PresenceRealtime | null = null;
const readyListeners = new Set<(ready: boolean) => void>();
const sessionListeners = new Set<(notice: SessionNotice) => void>();

/**
 * Gives the frame the app's realtime client, whose module loads with the first signed-in
 * state (realtime/signedIn.ts), not with the first screen (docs/benchmarks.md "Client first
 * load"). Listeners given before hear it from then on.
 */
export function attachRealtime(client: PresenceRealtime): void {
  attached = client;
  client.onReadyChange((ready) => {
    for (const listener of [...readyListeners]) listener(ready);
  });
  client.onSession((notice) => {
    for (const listener of [...sessionListeners]) listener(notice);
  });
}

/**
 * The app's realtime client as the frame sees it: before it is attached there is no socket
 * (nobody has signed in yet), so it is neither open nor ready, and there is nothing to tell or
 * reconnect, as the client itself answers while signed out.
 */
const appRealtime: PresenceRealtime = {
  activity: (step) => {
    attached?.activity(step);
  },
  reconnect: () => {
    attached?.reconnect();
  },
  isOpen: () => attached?.isOpen() ?? false,
  isReady: () => attached?.isReady() ?? false,
  onReadyChange: (listener) => {
    readyListeners.add(listener);
    return () => readyListeners.delete(listener);
  },
  onSession: (listener) => {
    sessionListeners.add(listener);
    return () => sessionListeners.delete(listener);
  },
};

export const PresenceContext = createContext<PresenceDeps>({
  realtime: appRealtime,
  signOut: () => auth.signOut(),
  window,
});
