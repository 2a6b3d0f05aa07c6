/**
 * Stands in for the server end of one socket.io connection (realtime client tests): acks by
 * event, held acks released by hand, connection dropped and restored by hand.
 */
import { createRealtimeClient, type AuthPayload, type SocketLike } from '../realtime/client';

type Handler = (...args: unknown[]) => void;

/** Stands in for the server end of one socket.io connection. */
export class FakeSocket implements SocketLike {
  connected = false;
  readonly handlers = new Map<string, Handler[]>();
  readonly sent: { event: string; payload: unknown }[] = [];
  connectCalls = 0;
  disconnectCalls = 0;
  /** What the server acks, per event. */
  answer: (event: string, payload: unknown) => unknown = () => ({});
  pendingAcks: {
    event: string;
    payload: unknown;
    resolve: (ack: unknown) => void;
    reject: (error: Error) => void;
  }[] = [];
  holdAcks = false;

  constructor(readonly auth: AuthPayload) {}

  on(event: string, listener: (...args: never[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener as Handler]);
    return this;
  }
  emit(event: string, payload?: unknown) {
    this.sent.push({ event, payload });
    return this;
  }
  timeout() {
    return {
      emitWithAck: (event: string, payload?: unknown) => {
        this.sent.push({ event, payload });
        if (this.holdAcks) {
          return new Promise<unknown>((resolve, reject) => this.pendingAcks.push({ event, payload, resolve, reject }));
        }
        return Promise.resolve(this.answer(event, payload));
      },
    };
  }
  connect() {
    this.connectCalls += 1;
    return this;
  }
  disconnect() {
    this.disconnectCalls += 1;
    this.connected = false;
    return this;
  }
  /** The server accepts the (re)connection. */
  serverConnect() {
    this.connected = true;
    this.fire('connect');
  }
  /** The connection is lost: like socket.io-client, acks still awaited fail. */
  dropConnection() {
    this.connected = false;
    this.fire('disconnect', 'transport close');
    for (const pending of this.pendingAcks.splice(0)) pending.reject(new Error('socket has been disconnected'));
  }
  fire(event: string, ...args: unknown[]) {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  subscribesSent() {
    return this.sent.filter((s) => s.event === 'subscribe').map((s) => s.payload);
  }
  authSent(): Record<string, unknown> {
    let data: Record<string, unknown> = {};
    this.auth((d) => (data = d));
    return data;
  }
}

/**
 * A realtime client whose every socket is a FakeSocket acking with `answer`; `socket()` is
 * the latest one (a reconnect after `disconnect` makes a new one).
 */
export function realtimeOverFakeSockets(
  options: { token?: string | null; answer?: FakeSocket['answer'] } = {},
) {
  const sockets: FakeSocket[] = [];
  const realtime = createRealtimeClient({
    createSocket: (auth) => {
      const socket = new FakeSocket(auth);
      if (options.answer) socket.answer = options.answer;
      sockets.push(socket);
      return socket;
    },
    getToken: () => (options.token === undefined ? 'tok' : options.token),
  });
  const socket = () => {
    const last = sockets.at(-1);
    if (!last) throw new Error('no socket yet');
    return last;
  };
  return { realtime, sockets, socket };
}
