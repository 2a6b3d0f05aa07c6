/**
 * A socket whose library loads when it is first opened: socket.io-client is needed only once
 * someone is signed in, so it stays out of the first screen's JavaScript (docs/benchmarks.md,
 * "Client first load"). Until the real socket exists, listeners are kept, emits wait for it
 * (as socket.io-client itself buffers emits made while disconnected) and it reads as not
 * connected.
 */
import type { SocketLike } from './client';

type Listener = (...args: never[]) => void;

export function lazySocket(load: () => Promise<SocketLike>): SocketLike {
  let real: SocketLike | null = null;
  let loading: Promise<SocketLike> | null = null;
  /** Whether the socket should be open: the last of connect() and disconnect() called. */
  let wanted = false;
  const listeners: [string, Listener][] = [];

  function loaded(): Promise<SocketLike> {
    loading ??= load().then(
      (socket) => {
        for (const [event, listener] of listeners) socket.on(event, listener);
        real = socket;
        if (wanted) socket.connect();
        return socket;
      },
      (error: unknown) => {
        // Offline at the first sign-in: said as a failed connection, and tried again at the
        // next connect() (the offline notice's Retry, the browser's `online` event).
        loading = null;
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const [event, listener] of listeners) {
          if (event === 'connect_error') (listener as (error: Error) => void)(failure);
        }
        throw failure;
      },
    );
    return loading;
  }

  return {
    get connected() {
      return real?.connected ?? false;
    },
    on(event, listener) {
      if (real) real.on(event, listener);
      else listeners.push([event, listener]);
      return this;
    },
    emit(event, ...args) {
      if (real) return real.emit(event, ...args);
      loaded().then(
        (socket) => socket.emit(event, ...args),
        () => undefined, // lost with the connection, as an emit of a closed socket is
      );
      return this;
    },
    timeout(ms) {
      return {
        emitWithAck: (event, ...args) =>
          real ? real.timeout(ms).emitWithAck(event, ...args) : loaded().then((socket) => socket.timeout(ms).emitWithAck(event, ...args)),
      };
    },
    connect() {
      wanted = true;
      if (real) real.connect();
      else loaded().catch(() => undefined); // told to the connect_error listeners
      return this;
    },
    disconnect() {
      wanted = false;
      real?.disconnect();
      return this;
    },
  };
}
