import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../store';
import type { Snapshot } from '../store/types';
import { bindRealtime } from './bindings';
import { realtimeOverFakeSockets } from '../test/fakeSocket';
import { FunctionsError } from './errors';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function snapshot(path: string, version: number, data: Record<string, unknown> = {}): Snapshot {
  return { path, exists: true, data, version };
}

function setup(token: string | null = 'tok') {
  const { realtime: client, socket, sockets } = realtimeOverFakeSockets({
    token,
    answer: (event, payload) => {
      if (event === 'subscribe') {
        const { path, version } = payload as { path: string; version?: number };
        return { snapshot: snapshot(path, version ?? 1) };
      }
      if (event === 'update') return { version: 7 };
      if (event === 'unsubscribe') return { ok: true };
      return {};
    },
  });
  return { client, socket, sockets };
}

describe('realtime client', () => {
  it('connects with auth {token} when a bearer token is known', () => {
    const { client, socket } = setup('tok-9');
    client.connect();
    expect(socket().connectCalls).toBe(1);
    expect(socket().authSent()).toEqual({ token: 'tok-9' });
    const anonymous = setup(null);
    anonymous.client.connect();
    expect(anonymous.socket().authSent()).toEqual({});
  });

  it('subscribes paths asked for before the connection once it is up', async () => {
    const { client, socket } = setup();
    client.connect();
    const first = client.subscribe('users/u1');
    expect(socket().subscribesSent()).toEqual([]);
    socket().serverConnect();
    await expect(first).resolves.toEqual(snapshot('users/u1', 1));
    expect(socket().subscribesSent()).toEqual([{ path: 'users/u1' }]);
  });

  it('resubscribes every path with the version it holds after a reconnect', async () => {
    const { client, socket } = setup();
    const seen: Snapshot[] = [];
    client.onSnapshot((s) => seen.push(s));
    client.connect();
    socket().serverConnect();
    await client.subscribe('users/u1');
    await client.subscribe('appointments/a1');
    socket().fire('snapshot', snapshot('appointments/a1', 4, { status: 'draft' }));
    socket().fire('snapshot', snapshot('users/u1', 2));

    socket().dropConnection();
    socket().sent.length = 0;
    socket().serverConnect();
    await flush();

    expect(socket().subscribesSent()).toEqual([
      { path: 'users/u1', version: 2 },
      { path: 'appointments/a1', version: 4 },
    ]);
    expect(seen.map((s) => `${s.path}@${String(s.version)}`)).toContain('appointments/a1@4');
  });

  it('keeps the newest version when a push overtakes the subscribe ack', async () => {
    const { client, socket } = setup();
    client.connect();
    socket().serverConnect();
    socket().holdAcks = true;
    const subscribed = client.subscribe('appointments/a1');
    socket().fire('snapshot', snapshot('appointments/a1', 5));
    socket().pendingAcks.shift()?.resolve({ snapshot: snapshot('appointments/a1', 4) });
    await subscribed;
    expect(client.heldVersion('appointments/a1')).toBe(5);
  });

  it('forgets an unsubscribed path: no more snapshots, no resubscribe', async () => {
    const { client, socket } = setup();
    const seen: Snapshot[] = [];
    client.onSnapshot((s) => seen.push(s));
    client.connect();
    socket().serverConnect();
    await client.subscribe('appointments/a1');
    await client.unsubscribe('appointments/a1');
    expect(socket().sent.at(-1)).toEqual({ event: 'unsubscribe', payload: { path: 'appointments/a1' } });
    seen.length = 0;
    socket().fire('snapshot', snapshot('appointments/a1', 9));
    socket().dropConnection();
    socket().sent.length = 0;
    socket().serverConnect();
    expect(seen).toEqual([]);
    expect(socket().subscribesSent()).toEqual([]);
  });

  it('rejects a refused subscription with its error and does not retry it', async () => {
    const { client, socket } = setup();
    client.connect();
    socket().answer = () => ({ error: { status: 'PERMISSION_DENIED', message: 'not yours' } });
    socket().serverConnect();
    const refused = client.subscribe('users/someone-else');
    await expect(refused).rejects.toMatchObject({ code: 'permission-denied', message: 'not yours' });
    expect(client.subscribedPaths()).toEqual([]);
  });

  it('sends update {path, data, baseVersion} and returns the committed version', async () => {
    const { client, socket } = setup();
    client.connect();
    socket().serverConnect();
    await expect(client.update('appointments/a1', { 'intake.profile.femaleDob': '1990-01-01' }, 6)).resolves.toEqual({
      version: 7,
    });
    expect(socket().sent.at(-1)).toEqual({
      event: 'update',
      payload: { path: 'appointments/a1', data: { 'intake.profile.femaleDob': '1990-01-01' }, baseVersion: 6 },
    });
    socket().answer = () => ({ error: { status: 'ABORTED', message: 'stale', details: null } });
    const stale = client.update('appointments/a1', { x: 1 }, 1);
    await expect(stale).rejects.toBeInstanceOf(FunctionsError);
    await expect(stale).rejects.toMatchObject({ code: 'aborted' });
  });

  it('is ready once connected and every followed path is subscribed again, and not while disconnected', async () => {
    const { client, socket } = setup();
    const changes: boolean[] = [];
    client.onReadyChange((ready) => changes.push(ready));
    client.connect();
    void client.subscribe('appointments/a1');
    socket().holdAcks = true;
    socket().serverConnect();
    await flush();
    expect(client.isReady()).toBe(false); // the subscription is not acked yet
    socket().pendingAcks.shift()?.resolve({ snapshot: snapshot('appointments/a1', 2) });
    await flush();
    expect(client.isReady()).toBe(true);
    socket().dropConnection();
    expect(client.isReady()).toBe(false);
    socket().holdAcks = false;
    socket().serverConnect();
    await flush();
    expect(client.isReady()).toBe(true);
    client.disconnect();
    expect(changes).toEqual([true, false, true, false]);
  });

  it('passes every activity on at once while connected: the caller (the inactivity monitor) throttles', () => {
    const { client, socket } = setup();
    client.connect();
    socket().serverConnect();
    client.activity();
    client.activity('family');
    expect(socket().sent.filter((s) => s.event === 'activity')).toEqual([
      { event: 'activity', payload: {} },
      { event: 'activity', payload: { step: 'family' } },
    ]);
  });

  it('remembers activity while the socket is down and sends it once, with the latest step, on reconnect', () => {
    vi.useFakeTimers();
    try {
      const { client, socket } = setup();
      const activities = () => socket().sent.filter((s) => s.event === 'activity');
      client.connect();
      socket().serverConnect();
      client.activity('family');
      expect(activities()).toEqual([{ event: 'activity', payload: { step: 'family' } }]);

      socket().dropConnection();
      for (const step of ['family', 'family', 'contact']) {
        vi.advanceTimersByTime(60_000);
        client.activity(step);
      }
      expect(activities()).toHaveLength(1); // nothing goes out while down

      socket().serverConnect();
      expect(activities()).toEqual([
        { event: 'activity', payload: { step: 'family' } },
        { event: 'activity', payload: { step: 'contact' } },
      ]);
      // Sent once: a later reconnect without activity meanwhile sends nothing.
      socket().dropConnection();
      socket().serverConnect();
      expect(activities()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets activity missed while down when signed out, and never sends any while signed out', () => {
    const { client, socket, sockets } = setup();
    client.activity('family'); // never connected: nothing to keep alive
    client.connect();
    socket().serverConnect();
    socket().dropConnection();
    client.activity('family');
    client.disconnect();
    client.connect();
    socket().serverConnect();
    expect(sockets.flatMap((s) => s.sent).filter((s) => s.event === 'activity')).toEqual([]);
  });

  it('passes session notices on and ignores malformed pushes', () => {
    const { client, socket } = setup();
    const notices: unknown[] = [];
    const seen: unknown[] = [];
    client.onSession((n) => notices.push(n));
    client.onSnapshot((s) => seen.push(s));
    client.connect();
    socket().fire('session', { state: 'warning', secondsLeft: 42 });
    socket().fire('session', { state: 'sleepy' });
    socket().fire('snapshot', { path: 'users/u1' });
    expect(notices).toEqual([{ state: 'warning', secondsLeft: 42 }]);
    expect(seen).toEqual([]);
  });
});

describe('realtime bindings', () => {
  const alice = { uid: 'u1', email: 'a@example.com', role: null, clinicId: null };

  it('follows the user record, then the appointment it names, into the store', async () => {
    const { client, socket } = setup();
    const store = createAppStore('ja');
    bindRealtime(client, store, () => undefined);
    expect(() => socket()).toThrow(); // signed out: no socket at all

    store.getState().setAuthUser(alice);
    socket().answer = (event, payload) => {
      const { path } = payload as { path: string };
      if (event !== 'subscribe') return { ok: true };
      return path === 'users/u1'
        ? { snapshot: snapshot(path, 3, { appointmentId: 'a1', locale: 'en' }) }
        : { snapshot: snapshot(path, 10, { status: 'draft' }) };
    };
    socket().serverConnect();
    await flush();

    expect(store.getState().documents.user?.data).toEqual({ appointmentId: 'a1', locale: 'en' });
    expect(store.getState().locale).toBe('en');
    expect(store.getState().documents.appointment).toMatchObject({ path: 'appointments/a1', version: 10 });

    // A later push of an older version (overtaken) changes nothing.
    socket().fire('snapshot', snapshot('appointments/a1', 9, { status: 'stale' }));
    expect(store.getState().documents.appointment?.data).toEqual({ status: 'draft' });
    socket().fire('snapshot', snapshot('appointments/a1', 11, { status: 'confirmed' }));
    expect(store.getState().documents.appointment?.data).toEqual({ status: 'confirmed' });
  });

  it('closes the socket and drops subscriptions on sign-out', async () => {
    const { client, socket } = setup();
    const store = createAppStore('ja');
    bindRealtime(client, store, () => undefined);
    store.getState().setAuthUser(alice);
    socket().serverConnect();
    await flush();
    expect(client.subscribedPaths()).toEqual(['users/u1']);

    store.getState().reset();
    store.getState().setAuthUser(null);
    expect(socket().disconnectCalls).toBe(1);
    expect(client.subscribedPaths()).toEqual([]);
  });
});
