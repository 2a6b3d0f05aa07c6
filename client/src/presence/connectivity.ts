/**
 * When to show the connection notice (docs/product.md "Behaviours across screens"), without
 * React or DOM: connectivity counts as lost while the browser says it is offline, or while the
 * socket that should be open (signed in) is down. The notice opens once it has been lost for
 * `delayMs` (contract.json offlineDialogDelaySeconds) and closes as soon as it is back. What is
 * known is said: the browser is offline, or it is online and the clinic's server cannot be
 * reached.
 *
 * Retry: asks the socket to connect again at once and shows a spinner until the connection is
 * back (the dialog closes) or `retryMs` have passed.
 */
import { contract } from '../contract';
import { observed } from './observed';

/** Why the connection is lost: this device is offline, or the clinic's server does not answer. */
export type LostCause = 'browser' | 'server';

export interface ConnectivityState {
  open: boolean;
  retrying: boolean;
  /** While open: why (null when closed). */
  cause: LostCause | null;
}

export interface ConnectivityDeps {
  /** `navigator.onLine` */
  browserOnline: () => boolean;
  /** The socket should be open (signed in) but is not connected and resubscribed. */
  socketDown: () => boolean;
  /** Connect the socket again now (no-op when it is not wanted or already up). */
  reconnect: () => void;
  delayMs?: number;
  retryMs?: number;
}

export interface ConnectivityMonitor {
  /** Something changed (browser online/offline, socket, sign-in): look again. */
  update: () => void;
  /** The dialog's "Retry". */
  retry: () => void;
  stop: () => void;
  getState: () => ConnectivityState;
  subscribe: (listener: () => void) => () => void;
}

export const OFFLINE_DIALOG_DELAY_MS = contract.offlineDialogDelaySeconds * 1000;
export const RETRY_SPINNER_MS = 4_000;

export function createConnectivityMonitor(deps: ConnectivityDeps): ConnectivityMonitor {
  const delayMs = deps.delayMs ?? OFFLINE_DIALOG_DELAY_MS;
  const retryMs = deps.retryMs ?? RETRY_SPINNER_MS;
  const store = observed<ConnectivityState>({ open: false, retrying: false, cause: null });
  const publish = store.publish;
  let lostTimer: ReturnType<typeof setTimeout> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  /** Read afresh (after `update()`, which may change it). */
  const isOpen = () => store.get().open;
  const lost = () => !deps.browserOnline() || deps.socketDown();
  const cause = (): LostCause => (deps.browserOnline() ? 'server' : 'browser');

  function clearRetry(): void {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  }

  function update(): void {
    if (!lost()) {
      if (lostTimer !== null) clearTimeout(lostTimer);
      lostTimer = null;
      clearRetry();
      publish({ open: false, retrying: false, cause: null });
      return;
    }
    const current = store.get();
    if (current.open) {
      // Still lost, maybe for another reason (the browser went offline meanwhile).
      if (current.cause !== cause()) publish({ ...current, cause: cause() });
      return;
    }
    if (lostTimer !== null) return;
    lostTimer = setTimeout(() => {
      lostTimer = null;
      if (lost()) publish({ open: true, retrying: false, cause: cause() });
    }, delayMs);
  }

  return {
    update,

    retry() {
      if (!store.get().open || store.get().retrying) return;
      publish({ ...store.get(), retrying: true });
      deps.reconnect();
      update(); // back already (the browser said so before its event arrived)?
      if (!isOpen()) return;
      retryTimer = setTimeout(() => {
        retryTimer = null;
        if (store.get().open) publish({ ...store.get(), retrying: false });
        update();
      }, retryMs);
    },

    /** Forgets timers and closes (unmounted); `update()` starts again. */
    stop() {
      if (lostTimer !== null) clearTimeout(lostTimer);
      lostTimer = null;
      clearRetry();
      publish({ open: false, retrying: false, cause: null });
    },

    getState: store.get,
    subscribe: store.subscribe,
  };
}
