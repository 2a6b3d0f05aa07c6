/**
 * The live-document client over Socket.IO (docs/protocol.md "Live documents"). The socket it creates is
 * the only one of the app: nothing else emits or listens on it.
 *
 * It keeps a map path -> version held. python-socketio has no connection-state recovery and a
 * push can be lost, so after every (re)connect every path is subscribed again with the version
 * held; the server then answers with the current snapshot.
 */
import { functionTimeoutMs } from '../contract';
import type { Snapshot } from '../store/types';
import { errorFromWire, FunctionsError } from './errors';
import { ClientEvent, ServerEvent, type SessionNotice } from './events';
import { isRecord } from '../isRecord';

/** The part of a socket.io-client Socket this module uses (a fake in tests). */
export interface SocketLike {
  readonly connected: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  timeout(ms: number): { emitWithAck(event: string, ...args: unknown[]): Promise<unknown> };
  connect(): unknown;
  disconnect(): unknown;
}

/** socket.io-client's `auth` option as a function: read again at every (re)connect. */
export type AuthPayload = (callback: (data: Record<string, unknown>) => void) => void;

export interface RealtimeDeps {
  createSocket: (auth: AuthPayload) => SocketLike;
  getToken: () => string | null;
  /** How long to wait for an ack; default contract.json functionTimeoutMs. */
  ackTimeoutMs?: number;
}

export interface RealtimeClient {
  /** Opens the socket (with the bearer token when one is known). No-op when open. */
  connect(): void;
  /** Closes the socket and forgets every subscription (sign-out). */
  disconnect(): void;
  /** Follows a document; resolves with the first snapshot the server acks. */
  subscribe(path: string): Promise<Snapshot>;
  unsubscribe(path: string): Promise<void>;
  /** Changes fields (dot-separated paths); resolves with the committed version. */
  update(path: string, data: Record<string, unknown>, baseVersion?: number): Promise<{ version: number }>;
  /** Emits `call` and resolves with the raw ack (`{data}` or `{error}`), for the callable client. */
  call(name: string, data: unknown, timeoutMs: number): Promise<unknown>;
  /**
   * Tells the server the person is active, on `step` (a step id or route name). Not throttled
   * here: the caller is the one throttle (the inactivity monitor, `presence/inactivity.ts`
   * `ACTIVITY_THROTTLE_MS`, which also sends the last activity of a burst), and each call
   * goes out at once. While the socket is down, the activity is remembered (the latest step
   * only) and one `activity` is sent as soon as it is connected again, so that the server's
   * inactivity timer hears of what the person did offline.
   */
  activity(step?: string): void;
  /**
   * Tries to connect again at once when the socket is open but down (the offline dialog's
   * Retry; the browser's `online` event), instead of waiting for socket.io's backoff.
   */
  reconnect(): void;
  /** Whether a socket is wanted: between `connect()` and `disconnect()` (signed in). */
  isOpen(): boolean;
  onSnapshot(listener: (snapshot: Snapshot) => void): () => void;
  /** The `changes` events, as they come (their reader parses them: staff/bookingsWindow.ts). */
  onChanges(listener: (payload: unknown) => void): () => void;
  onSession(listener: (notice: SessionNotice) => void): () => void;
  onConnectError(listener: (error: Error) => void): () => void;
  /**
   * Connected, and every followed path subscribed again after the last (re)connect (acked or
   * refused): the moment to send what waited for the connection.
   */
  isReady(): boolean;
  onReadyChange(listener: (ready: boolean) => void): () => void;
  /** The version held for a subscribed path (undefined before its first snapshot). */
  heldVersion(path: string): number | undefined;
  subscribedPaths(): string[];
}

export function parseSnapshot(value: unknown): Snapshot | null {
  if (!isRecord(value)) return null;
  const { path, exists, data, version } = value;
  if (typeof path !== 'string' || typeof exists !== 'boolean' || typeof version !== 'number') return null;
  if (data !== null && data !== undefined && !isRecord(data)) return null;
  return { path, exists, data: data ?? null, version };
}

function parseSessionNotice(value: unknown): SessionNotice | null {
  if (!isRecord(value)) return null;
  const { state, secondsLeft } = value;
  if ((state !== 'active' && state !== 'warning' && state !== 'expired') || typeof secondsLeft !== 'number') {
    return null;
  }
  return { state, secondsLeft };
}

interface Waiter {
  resolve: (snapshot: Snapshot) => void;
  reject: (error: FunctionsError) => void;
}

export function createRealtimeClient(deps: RealtimeDeps): RealtimeClient {
  const ackTimeoutMs = deps.ackTimeoutMs ?? functionTimeoutMs;
  let socket: SocketLike | null = null;
  /** Subscribed paths and the version held for each (undefined before the first snapshot). */
  const held = new Map<string, number | undefined>();
  const waiters = new Map<string, Waiter[]>();
  const snapshotListeners = new Set<(snapshot: Snapshot) => void>();
  const changesListeners = new Set<(payload: unknown) => void>();
  const sessionListeners = new Set<(notice: SessionNotice) => void>();
  const connectErrorListeners = new Set<(error: Error) => void>();
  const readyListeners = new Set<(ready: boolean) => void>();
  /** Activity while the socket was down (its latest step), sent once at the next connect. */
  let missedActivity: { step: string | undefined } | null = null;
  let ready = false;
  /** Counts connections, so that a late resubscription of an older one changes nothing. */
  let connection = 0;

  function setReady(next: boolean): void {
    if (ready === next) return;
    ready = next;
    for (const listener of readyListeners) listener(next);
  }

  function emitActivity(target: SocketLike, step: string | undefined): void {
    target.emit(ClientEvent.activity, step === undefined ? {} : { step });
  }

  function settle(path: string, outcome: { snapshot: Snapshot } | { error: FunctionsError }): void {
    const pending = waiters.get(path) ?? [];
    waiters.delete(path);
    for (const waiter of pending) {
      if ('snapshot' in outcome) waiter.resolve(outcome.snapshot);
      else waiter.reject(outcome.error);
    }
  }

  function deliver(snapshot: Snapshot): void {
    if (!held.has(snapshot.path)) return; // not (or no longer) followed
    const version = held.get(snapshot.path);
    if (version === undefined || snapshot.version > version) held.set(snapshot.path, snapshot.version);
    for (const listener of snapshotListeners) listener(snapshot);
  }

  /** Settles once the subscription is acked, refused or timed out. */
  function sendSubscribe(path: string): Promise<void> {
    if (!socket?.connected) return Promise.resolve(); // the next `connect` subscribes it
    const version = held.get(path);
    const payload = version === undefined ? { path } : { path, version };
    return socket
      .timeout(ackTimeoutMs)
      .emitWithAck(ClientEvent.subscribe, payload)
      .then(
        (ack) => {
          if (!held.has(path)) return;
          const error = errorFromWire(ack);
          if (error) {
            held.delete(path); // refused: retrying on reconnect would be refused again
            settle(path, { error });
            return;
          }
          const snapshot = parseSnapshot(isRecord(ack) ? ack.snapshot : undefined);
          if (!snapshot) {
            settle(path, { error: new FunctionsError('internal', 'Response is not a valid snapshot.') });
            return;
          }
          deliver(snapshot);
          settle(path, { snapshot });
        },
        () => {
          // No ack in time: keep following; the next reconnect subscribes again.
          settle(path, { error: new FunctionsError('deadline-exceeded', 'deadline-exceeded') });
        },
      );
  }

  return {
    connect() {
      if (socket) return;
      const auth: AuthPayload = (callback) => {
        const token = deps.getToken();
        callback(token ? { token } : {});
      };
      const created = deps.createSocket(auth);
      socket = created;
      created.on('connect', () => {
        connection += 1;
        const current = connection;
        setReady(false);
        if (missedActivity !== null) {
          // One event is enough: the server only needs to know there was activity.
          const { step } = missedActivity;
          missedActivity = null;
          emitActivity(created, step);
        }
        void Promise.all([...held.keys()].map(sendSubscribe)).then(() => {
          if (current === connection && socket === created && created.connected) setReady(true);
        });
      });
      created.on('disconnect', () => {
        connection += 1;
        setReady(false);
      });
      created.on(ServerEvent.snapshot, (payload: never) => {
        const snapshot = parseSnapshot(payload);
        if (snapshot) deliver(snapshot);
      });
      created.on(ServerEvent.changes, (payload: never) => {
        for (const listener of changesListeners) listener(payload);
      });
      created.on(ServerEvent.session, (payload: never) => {
        const notice = parseSessionNotice(payload);
        if (notice) for (const listener of sessionListeners) listener(notice);
      });
      created.on('connect_error', (error: never) => {
        for (const listener of connectErrorListeners) listener(error);
      });
      created.connect();
    },

    disconnect() {
      socket?.disconnect();
      socket = null;
      connection += 1;
      missedActivity = null;
      setReady(false);
      for (const path of [...waiters.keys()]) {
        settle(path, { error: new FunctionsError('cancelled', 'The connection was closed.') });
      }
      held.clear();
    },

    subscribe(path) {
      if (!held.has(path)) held.set(path, undefined);
      const promise = new Promise<Snapshot>((resolve, reject) => {
        waiters.set(path, [...(waiters.get(path) ?? []), { resolve, reject }]);
      });
      void sendSubscribe(path);
      return promise;
    },

    async unsubscribe(path) {
      if (!held.has(path)) return;
      held.delete(path);
      settle(path, { error: new FunctionsError('cancelled', 'Unsubscribed.') });
      if (socket?.connected) {
        await socket
          .timeout(ackTimeoutMs)
          .emitWithAck(ClientEvent.unsubscribe, { path })
          .catch(() => undefined);
      }
    },

    async update(path, data, baseVersion) {
      if (!socket) throw new FunctionsError('unavailable', 'Not connected.');
      const payload = baseVersion === undefined ? { path, data } : { path, data, baseVersion };
      let ack: unknown;
      try {
        ack = await socket.timeout(ackTimeoutMs).emitWithAck(ClientEvent.update, payload);
      } catch {
        throw new FunctionsError('deadline-exceeded', 'deadline-exceeded');
      }
      const error = errorFromWire(ack);
      if (error) throw error;
      if (!isRecord(ack) || typeof ack.version !== 'number') {
        throw new FunctionsError('internal', 'Response is missing version field.');
      }
      return { version: ack.version };
    },

    async call(name, data, timeoutMs) {
      if (!socket) throw new FunctionsError('unavailable', 'Not connected.');
      try {
        return await socket.timeout(timeoutMs).emitWithAck(ClientEvent.call, { name, data });
      } catch {
        throw new FunctionsError('deadline-exceeded', 'deadline-exceeded');
      }
    },

    activity(step) {
      if (!socket) return; // signed out: nobody to keep alive
      if (!socket.connected) {
        missedActivity = { step };
        return;
      }
      emitActivity(socket, step);
    },

    reconnect() {
      if (!socket || socket.connected) return;
      // A disconnect then connect drops socket.io's pending backoff and opens a new attempt.
      socket.disconnect();
      socket.connect();
    },

    isOpen: () => socket !== null,

    onSnapshot(listener) {
      snapshotListeners.add(listener);
      return () => snapshotListeners.delete(listener);
    },
    onChanges(listener) {
      changesListeners.add(listener);
      return () => changesListeners.delete(listener);
    },
    onSession(listener) {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
    onConnectError(listener) {
      connectErrorListeners.add(listener);
      return () => connectErrorListeners.delete(listener);
    },

    isReady: () => ready,
    onReadyChange(listener) {
      readyListeners.add(listener);
      return () => readyListeners.delete(listener);
    },

    heldVersion: (path) => held.get(path),
    subscribedPaths: () => [...held.keys()],
  };
}
