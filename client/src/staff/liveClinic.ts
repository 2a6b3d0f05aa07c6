/**
 * The clinic's live documents of the staff screens, `clinics/{clinicId}/bookings` (or its
 * window `.../bookings/{from}/{to}`) and `clinics/{clinicId}/presence` (docs/protocol.md "Live
 * documents", "The bookings window"): kept in a small store of their own (the app store holds
 * only the person's own documents), fed like it: realtime client -> `receive` (followed paths,
 * newer versions only). `follow(path)` is counted, as the booking calendar's month documents
 * are (booking/liveMonths.ts).
 *
 * A window is held as its snapshot with the `changes` pushes applied in order
 * (bookingsWindow.ts); its document in the store has the v1 feed's shape (`{bookings}`, plus
 * `days`), so screens read both alike. The pushes of a window are kept for a while: a snapshot
 * that arrives after some of them (a push can overtake the subscribe's ack) has them applied
 * again, and a missed push (a version gap) subscribes the window again.
 */
import { useEffect } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { realtime, subscribe, unsubscribe } from '../realtime';
import { FunctionsError, type FunctionsErrorCode } from '../realtime/errors';
import type { HeldDocument, Snapshot } from '../store/types';
import { countedFollow } from '../realtime/followers';
import { applyPush, parseChanges, parseWindowPath, pushBelongs, windowData, windowFromData, windowVersion, type ChangesPush, type WindowState } from './bookingsWindow';
import { CLINICS_PREFIX } from './clinicPaths';

export { bookingsPath, bookingsWindowPath, CLINICS_PREFIX, presencePath } from './clinicPaths';

/** How many recent pushes of a window are kept to apply again over a late snapshot. */
const KEPT_PUSHES = 500;

export interface LiveClinicState {
  documents: Record<string, HeldDocument>;
  /** Why a followed document could not be subscribed (with the error's details). */
  errors: Record<string, { code: FunctionsErrorCode; details: unknown }>;
}

export interface LiveClinicDeps {
  subscribe: (path: string) => Promise<Snapshot>;
  unsubscribe: (path: string) => Promise<void>;
  onSnapshot: (listener: (snapshot: Snapshot) => void) => () => void;
  /** The raw `changes` events of the socket. */
  onChanges: (listener: (payload: unknown) => void) => () => void;
}

export interface LiveClinic {
  store: StoreApi<LiveClinicState>;
  follow: (path: string) => () => void;
  receive: (snapshot: Snapshot) => void;
  /** A `changes` event of a day stream: applied to every followed window it belongs to. */
  receiveChanges: (payload: unknown) => void;
  followed: () => string[];
}

export function createLiveClinic(deps: LiveClinicDeps): LiveClinic {
  const store = createStore<LiveClinicState>()(() => ({ documents: {}, errors: {} }));
  const counts = new Map<string, number>();
  let listening = false;

  /** Per followed window: its state (after its first snapshot) and its recent pushes. */
  const windows = new Map<string, { state: WindowState | null; pushes: ChangesPush[] }>();

  const hold = (path: string, document: HeldDocument) => {
    store.setState((state) => ({
      documents: { ...state.documents, [path]: document },
      errors: Object.fromEntries(Object.entries(state.errors).filter(([key]) => key !== path)),
    }));
  };

  const holdWindow = (path: string, state: WindowState) => {
    hold(path, { path, exists: true, data: windowData(state), version: windowVersion(state) });
  };

  const subscribeTo = (path: string) => {
    deps.subscribe(path).then(receive, (error: unknown) => {
      if (!counts.has(path)) return;
      const code = error instanceof FunctionsError ? error.code : 'unknown';
      // Let go of, or no ack in time (still followed: the next reconnect subscribes again).
      if (code === 'cancelled' || code === 'deadline-exceeded') return;
      const details = error instanceof FunctionsError ? error.details : undefined;
      store.setState((state) => ({ errors: { ...state.errors, [path]: { code, details } } }));
    });
  };

  /** Apply pushes over a window's state; null when one was missed. */
  const replay = (state: WindowState, pushes: ChangesPush[]): WindowState | null => {
    let current = state;
    for (const push of pushes) {
      const applied = applyPush(current, push);
      if (applied.kind === 'gap') return null;
      if (applied.kind === 'applied') current = applied.state;
    }
    return current;
  };

  const receiveWindow = (snapshot: Snapshot) => {
    const held = windows.get(snapshot.path);
    const fresh = snapshot.exists ? windowFromData(snapshot.data) : null;
    if (!held || fresh === null) {
      hold(snapshot.path, { path: snapshot.path, exists: snapshot.exists, data: null, version: snapshot.version });
      return;
    }
    const state = replay(fresh, held.pushes);
    held.state = state ?? fresh;
    holdWindow(snapshot.path, held.state);
    if (state === null) {
      held.pushes = [];
      subscribeTo(snapshot.path);
    }
  };

  const receive = (snapshot: Snapshot) => {
    if (!snapshot.path.startsWith(CLINICS_PREFIX) || !counts.has(snapshot.path)) return;
    if (parseWindowPath(snapshot.path) !== null) {
      receiveWindow(snapshot);
      return;
    }
    const held = store.getState().documents[snapshot.path];
    if (held && snapshot.version <= held.version) return;
    hold(snapshot.path, {
      path: snapshot.path,
      exists: snapshot.exists,
      data: snapshot.exists ? snapshot.data : null,
      version: snapshot.version,
    });
  };

  const receiveChanges = (payload: unknown) => {
    const push = parseChanges(payload);
    if (push === null) return;
    for (const [path, held] of windows) {
      if (!pushBelongs(path, push)) continue;
      held.pushes = [...held.pushes.slice(1 - KEPT_PUSHES), push];
      if (held.state === null) continue; // applied over the snapshot when it comes
      const applied = applyPush(held.state, push);
      if (applied.kind === 'gap') {
        subscribeTo(path);
      } else if (applied.kind === 'applied') {
        held.state = applied.state;
        holdWindow(path, applied.state);
      }
    }
  };

  const forget = (path: string) => {
    store.setState((state) => ({
      documents: Object.fromEntries(Object.entries(state.documents).filter(([key]) => key !== path)),
      errors: Object.fromEntries(Object.entries(state.errors).filter(([key]) => key !== path)),
    }));
  };

  return {
    store,
    receive,
    receiveChanges,
    followed: () => [...counts.keys()],
    follow(path) {
      if (!listening) {
        listening = true;
        deps.onSnapshot(receive);
        deps.onChanges(receiveChanges);
      }
      return countedFollow(
        counts,
        path,
        () => {
          if (parseWindowPath(path) !== null) windows.set(path, { state: null, pushes: [] });
          subscribeTo(path);
        },
        () => {
          windows.delete(path);
          forget(path);
          void deps.unsubscribe(path);
        },
      );
    },
  };
}

/** The app's clinic documents, fed by the app's realtime client. */
export const liveClinic = createLiveClinic({
  subscribe,
  unsubscribe,
  onSnapshot: (listener) => realtime.onSnapshot(listener),
  onChanges: (listener) => realtime.onChanges(listener),
});

/** Follows a clinic document while the component is shown (null: none). */
export function useClinicDocument(path: string | null) {
  useEffect(() => (path === null ? undefined : liveClinic.follow(path)), [path]);
  const document = useStore(liveClinic.store, (state) => (path === null ? undefined : state.documents[path]));
  const error = useStore(liveClinic.store, (state) => (path === null ? undefined : state.errors[path]));
  return { document, error };
}
