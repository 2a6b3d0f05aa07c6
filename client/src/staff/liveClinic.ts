/**
 * The clinic's live documents of the staff screens, `clinics/{clinicId}/bookings` and
 * `clinics/{clinicId}/presence` (docs/protocol.md "Live documents"): kept in a small store of
 * their own (the app store holds only the person's own documents), fed like it: realtime
 * client -> `receive` (followed paths, newer versions only). `follow(path)` is counted, as the
 * booking calendar's month documents are (booking/liveMonths.ts).
 */
import { useEffect } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { realtime, subscribe, unsubscribe } from '../realtime';
import { FunctionsError, type FunctionsErrorCode } from '../realtime/errors';
import type { HeldDocument, Snapshot } from '../store/types';
import { countedFollow } from '../realtime/followers';

export const CLINICS_PREFIX = 'clinics/';

export const bookingsPath = (clinicId: string) => `${CLINICS_PREFIX}${clinicId}/bookings`;
export const presencePath = (clinicId: string) => `${CLINICS_PREFIX}${clinicId}/presence`;

export interface LiveClinicState {
  documents: Record<string, HeldDocument>;
  /** Why a followed document could not be subscribed (with the error's details). */
  errors: Record<string, { code: FunctionsErrorCode; details: unknown }>;
}

export interface LiveClinicDeps {
  subscribe: (path: string) => Promise<Snapshot>;
  unsubscribe: (path: string) => Promise<void>;
  onSnapshot: (listener: (snapshot: Snapshot) => void) => () => void;
}

export interface LiveClinic {
  store: StoreApi<LiveClinicState>;
  follow: (path: string) => () => void;
  receive: (snapshot: Snapshot) => void;
  followed: () => string[];
}

export function createLiveClinic(deps: LiveClinicDeps): LiveClinic {
  const store = createStore<LiveClinicState>()(() => ({ documents: {}, errors: {} }));
  const counts = new Map<string, number>();
  let listening = false;

  const receive = (snapshot: Snapshot) => {
    if (!snapshot.path.startsWith(CLINICS_PREFIX) || !counts.has(snapshot.path)) return;
    const held = store.getState().documents[snapshot.path];
    if (held && snapshot.version <= held.version) return;
    store.setState((state) => ({
      documents: {
        ...state.documents,
        [snapshot.path]: {
          path: snapshot.path,
          exists: snapshot.exists,
          data: snapshot.exists ? snapshot.data : null,
          version: snapshot.version,
        },
      },
      errors: Object.fromEntries(Object.entries(state.errors).filter(([key]) => key !== snapshot.path)),
    }));
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
    followed: () => [...counts.keys()],
    follow(path) {
      if (!listening) {
        listening = true;
        deps.onSnapshot(receive);
      }
      return countedFollow(
        counts,
        path,
        () => {
          deps.subscribe(path).then(receive, (error: unknown) => {
            if (!counts.has(path)) return;
            const code = error instanceof FunctionsError ? error.code : 'unknown';
            // Let go of, or no ack in time (still followed: the next reconnect subscribes again).
            if (code === 'cancelled' || code === 'deadline-exceeded') return;
            const details = error instanceof FunctionsError ? error.details : undefined;
            store.setState((state) => ({ errors: { ...state.errors, [path]: { code, details } } }));
          });
        },
        () => {
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
});

/** Follows a clinic document while the component is shown (null: none). */
export function useClinicDocument(path: string | null) {
  useEffect(() => (path === null ? undefined : liveClinic.follow(path)), [path]);
  const document = useStore(liveClinic.store, (state) => (path === null ? undefined : state.documents[path]));
  const error = useStore(liveClinic.store, (state) => (path === null ? undefined : state.errors[path]));
  return { document, error };
}
