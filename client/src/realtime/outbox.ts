/**
 * Saves that must not be lost: document updates kept in memory (never in browser storage: they
 * hold health answers) and sent one at a time, in order, whenever the realtime client is ready
 * (connected, and every followed document subscribed again after a reconnect). A save that
 * meets a dropped connection stays first in line and is sent again once the client is ready;
 * one the server refuses (invalid argument, permission, ...) leaves the line with its error.
 */
import type { AppStore, SaveStatus } from '../store';
import type { RealtimeClient } from './client';
import { FunctionsError } from './errors';

export interface Outbox {
  /** Queues an update of `path`; resolves with the committed version, rejects with the server's refusal. */
  send(path: string, data: Record<string, unknown>): Promise<{ version: number }>;
  status(): SaveStatus;
  onStatus(listener: (status: SaveStatus) => void): () => void;
  /** Saves not yet committed. */
  pending(): number;
  /** Drops every waiting save (sign-out): each rejects as cancelled. */
  clear(): void;
}

type OutboxRealtime = Pick<RealtimeClient, 'update' | 'isReady' | 'onReadyChange'>;

interface Entry {
  path: string;
  data: Record<string, unknown>;
  resolve: (result: { version: number }) => void;
  reject: (error: unknown) => void;
}

/** Errors that say nothing about the update itself: the connection failed; send it again. */
function isTransportError(error: unknown): boolean {
  return error instanceof FunctionsError && (error.code === 'deadline-exceeded' || error.code === 'unavailable');
}

export function createOutbox(realtime: OutboxRealtime): Outbox {
  const queue: Entry[] = [];
  const listeners = new Set<(status: SaveStatus) => void>();
  let sending = false;
  let lastOutcome: 'none' | 'saved' | 'failed' = 'none';
  let reported: SaveStatus = 'idle';

  function status(): SaveStatus {
    if (queue.length > 0) return realtime.isReady() ? 'saving' : 'offline';
    return lastOutcome === 'saved' ? 'saved' : 'idle';
  }

  function notify(): void {
    const next = status();
    if (next === reported) return;
    reported = next;
    for (const listener of listeners) listener(next);
  }

  async function pump(): Promise<void> {
    if (sending) return;
    sending = true;
    try {
      while (queue.length > 0 && realtime.isReady()) {
        const entry = queue[0];
        if (!entry) break;
        notify();
        try {
          const result = await realtime.update(entry.path, entry.data);
          if (queue[0] === entry) queue.shift();
          lastOutcome = 'saved';
          entry.resolve(result);
        } catch (error) {
          if (queue[0] !== entry) continue; // cleared meanwhile
          if (isTransportError(error)) break; // first in line until the client is ready again
          queue.shift();
          lastOutcome = 'failed';
          entry.reject(error);
        }
        notify();
      }
    } finally {
      sending = false;
      notify();
    }
  }

  realtime.onReadyChange((ready) => {
    notify();
    if (ready) void pump();
  });

  return {
    send(path, data) {
      return new Promise((resolve, reject) => {
        queue.push({ path, data, resolve, reject });
        notify();
        void pump();
      });
    },
    status,
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pending: () => queue.length,
    clear() {
      const dropped = queue.splice(0);
      lastOutcome = 'none';
      for (const entry of dropped) entry.reject(new FunctionsError('cancelled', 'Signed out before the save was sent.'));
      notify();
    },
  };
}

/** Shows the outbox's status in the store, and drops waiting saves when the person changes. */
export function bindOutbox(outbox: Outbox, store: AppStore): () => void {
  let uid = store.getState().session.user?.uid ?? null;
  store.getState().setSaveStatus(outbox.status());
  const offStatus = outbox.onStatus((status) => {
    store.getState().setSaveStatus(status);
  });
  const offStore = store.subscribe((state) => {
    const current = state.session.user?.uid ?? null;
    if (current === uid) return;
    uid = current;
    outbox.clear();
  });
  return () => {
    offStatus();
    offStore();
  };
}
