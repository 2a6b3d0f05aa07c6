/**
 * What the presence behaviours (inactivity countdown, offline dialog) need from the app: the
 * realtime client's presence part, sign-out and the browser window. The app's own by default;
 * tests provide fakes through `PresenceContext`.
 */
import { createContext } from 'react';
import { auth } from '../auth/session';
import { realtime } from '../realtime';
import type { RealtimeClient } from '../realtime/client';

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

export const PresenceContext = createContext<PresenceDeps>({
  realtime,
  signOut: () => auth.signOut(),
  window,
});
