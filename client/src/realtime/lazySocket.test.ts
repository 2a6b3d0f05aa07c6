import { describe, expect, it, vi } from 'vitest';
import type { SocketLike } from './client';
import { lazySocket } from './lazySocket';

/** A stand-in for socket.io-client's Socket: records what reaches it. */
function fakeSocket() {
  const handlers = new Map<string, ((...args: never[]) => void)[]>();
  const emitted: unknown[][] = [];
  const socket = {
    connected: false,
    on(event: string, listener: (...args: never[]) => void) {
      handlers.set(event, [...(handlers.get(event) ?? []), listener]);
      return socket;
    },
    emit(event: string, ...args: unknown[]) {
      emitted.push([event, ...args]);
      return socket;
    },
    timeout() {
      return { emitWithAck: (event: string, ...args: unknown[]) => Promise.resolve({ echoed: [event, ...args] }) };
    },
    connect: vi.fn(() => {
      socket.connected = true;
      for (const listener of handlers.get('connect') ?? []) (listener)();
      return socket;
    }),
    disconnect: vi.fn(() => {
      socket.connected = false;
      return socket;
    }),
  };
  return { socket, emitted };
}

describe('lazySocket', () => {
  it('loads nothing until it is opened, then hands over its listeners and connects', async () => {
    const { socket } = fakeSocket();
    const load = vi.fn(() => Promise.resolve(socket as SocketLike));
    const lazy = lazySocket(load);
    const connected = vi.fn();
    lazy.on('connect', connected);
    expect(load).not.toHaveBeenCalled();
    expect(lazy.connected).toBe(false);
    lazy.connect();
    await vi.waitFor(() => {
      expect(connected).toHaveBeenCalledTimes(1);
    });
    expect(load).toHaveBeenCalledTimes(1);
    expect(lazy.connected).toBe(true);
  });

  it('sends what was emitted before the library arrived, in order', async () => {
    const { socket, emitted } = fakeSocket();
    const lazy = lazySocket(() => Promise.resolve(socket as SocketLike));
    lazy.emit('activity', { step: 'a' });
    const ack = lazy.timeout(1000).emitWithAck('call', { name: 'x' });
    lazy.emit('activity', { step: 'b' });
    await expect(ack).resolves.toEqual({ echoed: ['call', { name: 'x' }] });
    expect(emitted).toEqual([
      ['activity', { step: 'a' }],
      ['activity', { step: 'b' }],
    ]);
  });

  it('does not connect when closed before the library arrived', async () => {
    const { socket } = fakeSocket();
    const lazy = lazySocket(() => Promise.resolve(socket as SocketLike));
    lazy.connect();
    lazy.disconnect();
    await lazy.timeout(1000).emitWithAck('noop');
    expect(socket.connect).not.toHaveBeenCalled();
  });

  it('says a failed load as a connection error and tries again at the next connect', async () => {
    const { socket } = fakeSocket();
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(socket);
    const lazy = lazySocket(load as () => Promise<SocketLike>);
    const failed = vi.fn();
    lazy.on('connect_error', failed);
    lazy.connect();
    await vi.waitFor(() => {
      expect(failed).toHaveBeenCalledWith(new Error('offline'));
    });
    lazy.connect();
    await vi.waitFor(() => {
      expect(lazy.connected).toBe(true);
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
