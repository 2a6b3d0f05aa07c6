/**
 * A module of the frame that most pages never show (the connection notice, the inactivity
 * warning), loaded after the first screen or once it may be needed rather than with the first
 * screen (docs/benchmarks.md "Client first load"). Unlike `React.lazy`, nothing suspends: a
 * component reads the module once it is there (null before) and is rendered again when it
 * arrives, and once loaded it renders at once (tests load it first and drive fake timers).
 */
import { useSyncExternalStore } from 'react';

export interface Later<M> {
  /** Starts loading (once; again after a failure, e.g. when the network is back). */
  load: () => Promise<M>;
  /** The module once loaded, else null; re-renders the component when it arrives. */
  useLoaded: () => M | null;
}

export function later<M>(importModule: () => Promise<M>): Later<M> {
  let loaded: M | null = null;
  let loading: Promise<M> | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const load = () => {
    loading ??= importModule().then(
      (module) => {
        loaded = module;
        for (const listener of [...listeners]) listener();
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return {
    load,
    useLoaded: () => useSyncExternalStore(subscribe, () => loaded),
  };
}
