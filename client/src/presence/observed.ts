/**
 * A monitor's published state and its listeners: the `getState` / `subscribe` pair that
 * `useSyncExternalStore` reads. `publish` replaces the state when a field differs and tells
 * every listener; `replace` sets it without telling (a restart, evaluated right after).
 */
export interface Observed<T> {
  get: () => T;
  publish: (next: T) => void;
  replace: (next: T) => void;
  subscribe: (listener: () => void) => () => void;
}

export function observed<T extends object>(initial: T): Observed<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    publish(next) {
      if ((Object.keys(next) as (keyof T)[]).every((key) => next[key] === state[key])) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    replace(next) {
      state = next;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
