import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store';
import { type FakeSocket, realtimeOverFakeSockets } from '../test/fakeSocket';
import { FunctionsError } from './errors';
import { bindOutbox, createOutbox } from './outbox';

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** A realtime client reduced to what the outbox uses; updates answered by hand or at once. */
function fakeRealtime() {
  let ready = false;
  const listeners = new Set<(ready: boolean) => void>();
  const updates: { path: string; data: Record<string, unknown> }[] = [];
  let answer: (data: Record<string, unknown>) => Promise<{ version: number }> = () => Promise.resolve({ version: updates.length });
  return {
    updates,
    answerWith(next: typeof answer) {
      answer = next;
    },
    setReady(next: boolean) {
      ready = next;
      for (const listener of listeners) listener(next);
    },
    realtime: {
      update: (path: string, data: Record<string, unknown>) => {
        updates.push({ path, data });
        return answer(data);
      },
      isReady: () => ready,
      onReadyChange: (listener: (ready: boolean) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

describe('outbox', () => {
  it('sends at once when connected, and says saved', async () => {
    const fake = fakeRealtime();
    fake.setReady(true);
    const outbox = createOutbox(fake.realtime);
    const statuses: string[] = [];
    outbox.onStatus((status) => statuses.push(status));
    await expect(outbox.send('appointments/a1', { 'intake.profile.femaleDob': '1990-04-01' })).resolves.toEqual({ version: 1 });
    expect(fake.updates).toEqual([{ path: 'appointments/a1', data: { 'intake.profile.femaleDob': '1990-04-01' } }]);
    expect(statuses).toEqual(['saving', 'saved']);
  });

  it('keeps saves made while disconnected, in memory, and sends them in order once ready', async () => {
    const fake = fakeRealtime();
    const outbox = createOutbox(fake.realtime);
    const first = outbox.send('appointments/a1', { a: 1 });
    const second = outbox.send('appointments/a1', { b: 2 });
    await flush();
    expect(fake.updates).toEqual([]);
    expect(outbox.status()).toBe('offline');
    expect(outbox.pending()).toBe(2);
    expect(localStorage.length + sessionStorage.length).toBe(0);
    fake.setReady(true);
    await expect(first).resolves.toEqual({ version: 1 });
    await expect(second).resolves.toEqual({ version: 2 });
    expect(fake.updates.map((u) => u.data)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(outbox.status()).toBe('saved');
  });

  it('sends a save again when the connection dropped before its answer, once, and keeps the order', async () => {
    const fake = fakeRealtime();
    fake.setReady(true);
    const outbox = createOutbox(fake.realtime);
    let fail = true;
    fake.answerWith(async () => {
      if (fail) {
        fail = false;
        fake.setReady(false);
        throw new FunctionsError('deadline-exceeded', 'deadline-exceeded');
      }
      return { version: fake.updates.length };
    });
    const first = outbox.send('appointments/a1', { a: 1 });
    const second = outbox.send('appointments/a1', { b: 2 });
    await flush();
    expect(fake.updates.map((u) => u.data)).toEqual([{ a: 1 }]);
    expect(outbox.status()).toBe('offline');
    fake.setReady(true);
    await Promise.all([first, second]);
    expect(fake.updates.map((u) => u.data)).toEqual([{ a: 1 }, { a: 1 }, { b: 2 }]);
  });

  it("gives a refused save its error and goes on with the next", async () => {
    const fake = fakeRealtime();
    fake.setReady(true);
    const refusal = new FunctionsError('invalid-argument', 'Invalid', { codes: { 'intake.contactInfo.phone': 'phone' } });
    fake.answerWith(async (data) => {
      if ('bad' in data) throw refusal;
      return { version: 5 };
    });
    const outbox = createOutbox(fake.realtime);
    const bad = outbox.send('appointments/a1', { bad: true });
    const good = outbox.send('appointments/a1', { good: true });
    await expect(bad).rejects.toBe(refusal);
    await expect(good).resolves.toEqual({ version: 5 });
  });

  it('drops waiting saves when the person signs out', async () => {
    const fake = fakeRealtime();
    const outbox = createOutbox(fake.realtime);
    const store = createAppStore('en');
    store.getState().setAuthUser({ uid: 'u1', email: 'a@example.com', role: null, clinicId: null });
    bindOutbox(outbox, store);
    const waiting = outbox.send('appointments/a1', { a: 1 });
    await flush();
    expect(store.getState().saveStatus).toBe('offline');
    store.getState().setAuthUser(null);
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    fake.setReady(true);
    await flush();
    expect(fake.updates).toEqual([]);
    expect(store.getState().saveStatus).toBe('idle');
  });
});

describe('outbox over the realtime client', () => {
  function setup() {
    const { realtime, socket } = realtimeOverFakeSockets({
      answer: (event, payload) => {
        if (event === 'subscribe') {
          const { path } = payload as { path: string };
          return { snapshot: { path, exists: true, data: {}, version: 3 } };
        }
        if (event === 'update') return { version: 4 };
        return {};
      },
    });
    return { realtime, socket, outbox: createOutbox(realtime) };
  }
  const events = (socket: FakeSocket) => socket.sent.map((s) => s.event);

  it('queues while disconnected, then resubscribes first and sends each save once, in order', async () => {
    const { realtime, socket, outbox } = setup();
    realtime.connect();
    void realtime.subscribe('appointments/a1');
    socket().serverConnect();
    await flush();
    expect(realtime.isReady()).toBe(true);
    socket().dropConnection();
    const saves = [outbox.send('appointments/a1', { first: 1 }), outbox.send('appointments/a1', { second: 2 })];
    await flush();
    expect(events(socket())).toEqual(['subscribe']);
    expect(outbox.status()).toBe('offline');
    socket().serverConnect();
    await Promise.all(saves);
    expect(socket().sent.slice(1)).toEqual([
      { event: 'subscribe', payload: { path: 'appointments/a1', version: 3 } },
      { event: 'update', payload: { path: 'appointments/a1', data: { first: 1 } } },
      { event: 'update', payload: { path: 'appointments/a1', data: { second: 2 } } },
    ]);
    expect(outbox.status()).toBe('saved');
  });

  it('sends a save whose answer was lost with the connection again after the resubscription', async () => {
    const { realtime, socket, outbox } = setup();
    realtime.connect();
    void realtime.subscribe('appointments/a1');
    socket().serverConnect();
    await flush();
    socket().holdAcks = true;
    const save = outbox.send('appointments/a1', { first: 1 });
    await flush();
    expect(events(socket())).toEqual(['subscribe', 'update']);
    socket().dropConnection();
    await flush();
    socket().holdAcks = false;
    socket().serverConnect();
    await expect(save).resolves.toEqual({ version: 4 });
    expect(events(socket())).toEqual(['subscribe', 'update', 'subscribe', 'update']);
  });
});
