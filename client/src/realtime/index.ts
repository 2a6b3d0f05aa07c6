/**
 * The app's one realtime client and one callable client. Components use these functions (or
 * the store), never a socket.
 */
import { getToken } from '../auth/token';
import { createCallable } from './callable';
import { createRealtimeClient } from './client';
import { lazySocket } from './lazySocket';
import { createOutbox } from './outbox';

export const realtime = createRealtimeClient({
  // socket.io-client loads at the first connect (signed in), not with the first screen.
  createSocket: (auth) =>
    lazySocket(async () => {
      const { io } = await import('socket.io-client');
      return io({
        path: '/socket.io',
        autoConnect: false,
        // The session cookie (a later issue) travels with the handshake; the bearer in `auth`.
        withCredentials: true,
        auth,
        transports: ['websocket', 'polling'],
        tryAllTransports: true,
      });
    }),
  getToken,
});

export const callFunction = createCallable({
  fetch: (input, init) => globalThis.fetch(input, init),
  getToken,
  socketCall: (name, data, timeoutMs) => realtime.call(name, data, timeoutMs),
});

/**
 * Saves of the questionnaire and the review (appointment fields): kept in memory and sent in
 * order when connected. Components call `outbox.send(path, data)`.
 */
export const outbox = createOutbox(realtime);

export const subscribe = (path: string) => realtime.subscribe(path);
export const unsubscribe = (path: string) => realtime.unsubscribe(path);
export const update = (path: string, data: Record<string, unknown>, baseVersion?: number) =>
  realtime.update(path, data, baseVersion);

export { errorMessageKey, FunctionsError } from './errors';
export type { FunctionsErrorCode } from './errors';
export type { CallOptions, Transport } from './callable';
