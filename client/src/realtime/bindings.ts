/**
 * Wires the realtime client to the store: pushes flow socket -> here -> applySnapshot -> store,
 * and the store's session decides what is followed:
 * - signed in: the socket is open and `users/{uid}` is followed, plus the appointment the user
 *   record names (`appointments/{appointmentId}`), switched when that id changes;
 * - signed in by a booking mail's link (`user.link`): the socket is open (for the months a
 *   reschedule follows) but neither document is followed: that session may read neither
 *   (realtime/linkedAppointment.ts puts the appointment's booking facts in the store instead);
 * - signed out (or someone else signed in): the socket is closed and every subscription dropped.
 */
import type { AppStore } from '../store';
import { selectAppointmentId } from '../store/selectors';
import type { RealtimeClient } from './client';

export function bindRealtime(
  realtime: RealtimeClient,
  store: AppStore,
  report: (error: unknown) => void = (error) => {
    console.warn('Live document subscription failed', error);
  },
): () => void {
  let connectedUid: string | null = null;
  const followed: { user: string | null; appointment: string | null } = { user: null, appointment: null };

  const follow = (slot: keyof typeof followed, path: string | null) => {
    const previous = followed[slot];
    if (previous === path) return;
    followed[slot] = path;
    if (previous !== null) void realtime.unsubscribe(previous);
    if (path !== null) {
      realtime.subscribe(path).catch((error: unknown) => {
        // An unsubscribe or a closed socket cancels on purpose; anything else is worth a warning.
        if (followed[slot] === path) report(error);
      });
    }
  };

  const sync = () => {
    const state = store.getState();
    const uid = state.session.user?.uid ?? null;
    if (uid !== connectedUid) {
      // A new identity needs a new socket (its auth is read at connect).
      if (connectedUid !== null) realtime.disconnect();
      followed.user = null;
      followed.appointment = null;
      connectedUid = uid;
      if (uid !== null) realtime.connect();
    }
    if (uid === null) return;
    if (state.session.user?.link !== undefined) {
      follow('user', null);
      follow('appointment', null);
      return;
    }
    follow('user', `users/${uid}`);
    const appointmentId = selectAppointmentId(state);
    follow('appointment', appointmentId === null ? null : `appointments/${appointmentId}`);
  };

  const offSnapshot = realtime.onSnapshot((snapshot) => {
    store.getState().receiveSnapshot(snapshot);
  });
  const offStore = store.subscribe(sync);
  sync();
  return () => {
    offSnapshot();
    offStore();
  };
}
