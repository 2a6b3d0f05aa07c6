/**
 * The offline dialog's state (see connectivity.ts), bound to the page: the browser's `online`
 * and `offline` events and `navigator.onLine`, the socket's readiness while it should be open
 * (signed in), and the sign-in state. Back online, the socket is asked to reconnect at once.
 */
import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { useAppStore } from '../store';
import { createConnectivityMonitor, type ConnectivityState } from './connectivity';
import { PresenceContext } from './deps';

export interface Connectivity {
  state: ConnectivityState;
  retry: () => void;
}

export function useConnectivity(): Connectivity {
  const deps = useContext(PresenceContext);
  const [monitor] = useState(() =>
    createConnectivityMonitor({
      browserOnline: () => deps.window.navigator.onLine,
      socketDown: () => deps.realtime.isOpen() && !deps.realtime.isReady(),
      reconnect: () => {
        deps.realtime.reconnect();
      },
    }),
  );

  useEffect(() => {
    const target = deps.window;
    const update = () => {
      monitor.update();
    };
    const online = () => {
      deps.realtime.reconnect();
      monitor.update();
    };
    target.addEventListener('online', online);
    target.addEventListener('offline', update);
    const offReady = deps.realtime.onReadyChange(update);
    // Signing in opens the socket, signing out closes it: whether it should be up changes.
    const offStore = useAppStore.subscribe(update);
    monitor.update();
    return () => {
      target.removeEventListener('online', online);
      target.removeEventListener('offline', update);
      offReady();
      offStore();
      monitor.stop();
    };
  }, [monitor, deps]);

  const state = useSyncExternalStore(monitor.subscribe, monitor.getState);
  return { state, retry: monitor.retry };
}
