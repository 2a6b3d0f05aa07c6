/**
 * The live month documents of the calendar, `vacancies/{clinicId}/{serviceId}/{YYYY-MM}`
 * (docs/protocol.md "Live documents"): pushed to every watcher whenever anyone holds, releases, books or
 * cancels. The app store holds only the person's own documents, so these live in a small
 * store of their own, fed like it: realtime client -> `receive` (newer versions only).
 *
 * `follow(path)` subscribes through the realtime module (counted: two screens following one
 * month share the subscription) and returns the function that lets go of it; the realtime
 * client subscribes again with the version held after every reconnect.
 */
import { useEffect } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { realtime, subscribe, unsubscribe } from '../realtime';
import { FunctionsError, type FunctionsErrorCode } from '../realtime/errors';
import type { Snapshot } from '../store/types';
import { countedFollow } from '../realtime/followers';

export const VACANCIES_PREFIX = 'vacancies/';

export interface MonthDocument {
  path: string;
  exists: boolean;
  data: Record<string, unknown> | null;
  version: number;
}

export interface LiveMonthsState {
  months: Record<string, MonthDocument>;
  /** Why a followed month could not be subscribed. */
  errors: Record<string, FunctionsErrorCode>;
}

export interface LiveMonthsDeps {
  subscribe: (path: string) => Promise<Snapshot>;
  unsubscribe: (path: string) => Promise<void>;
  onSnapshot: (listener: (snapshot: Snapshot) => void) => () => void;
}

export interface LiveMonths {
  store: StoreApi<LiveMonthsState>;
  /** Follows a month document; the returned function lets go of it. */
  follow: (path: string) => () => void;
  /** A snapshot from the server (only followed `vacancies/` paths, only newer versions). */
  receive: (snapshot: Snapshot) => void;
  /** Paths followed now. */
  followed: () => string[];
}

export function vacanciesPath(clinicId: string, serviceId: string, month: string): string {
  return `${VACANCIES_PREFIX}${clinicId}/${serviceId}/${month}`;
}

export function createLiveMonths(deps: LiveMonthsDeps): LiveMonths {
  const store = createStore<LiveMonthsState>()(() => ({ months: {}, errors: {} }));
  const counts = new Map<string, number>();
  let listening = false;

  const receive = (snapshot: Snapshot) => {
    if (!snapshot.path.startsWith(VACANCIES_PREFIX) || !counts.has(snapshot.path)) return;
    const held = store.getState().months[snapshot.path];
    if (held && snapshot.version <= held.version) return;
    store.setState((state) => ({
      months: {
        ...state.months,
        [snapshot.path]: {
          path: snapshot.path,
          exists: snapshot.exists,
          data: snapshot.exists ? snapshot.data : null,
          version: snapshot.version,
        },
      },
    }));
  };

  const forget = (path: string) => {
    store.setState((state) => ({
      months: Object.fromEntries(Object.entries(state.months).filter(([key]) => key !== path)),
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
            if (!counts.has(path)) return; // let go of meanwhile
            const code = error instanceof FunctionsError ? error.code : 'unknown';
            if (code === 'cancelled') return;
            store.setState((state) => ({ errors: { ...state.errors, [path]: code } }));
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

/** The app's month documents, fed by the app's realtime client. */
export const liveMonths = createLiveMonths({
  subscribe,
  unsubscribe,
  onSnapshot: (listener) => realtime.onSnapshot(listener),
});

/**
 * Follows the month document at `path` while the component is shown (null: none); returns
 * what is held of it (undefined until its first snapshot) and the error of a refused
 * subscription. One hook per month, so that a month followed twice is never dropped and
 * subscribed again when the other one changes.
 */
export function useMonthDocument(path: string | null): { document: MonthDocument | undefined; error: FunctionsErrorCode | undefined } {
  useEffect(() => (path === null ? undefined : liveMonths.follow(path)), [path]);
  const document = useStore(liveMonths.store, (state) => (path === null ? undefined : state.months[path]));
  const error = useStore(liveMonths.store, (state) => (path === null ? undefined : state.errors[path]));
  return { document, error };
}
