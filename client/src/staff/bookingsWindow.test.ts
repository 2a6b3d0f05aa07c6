import { describe, expect, it, vi } from 'vitest';
import { bookingRow as row } from '../test/staff';
import { applyPush, parseChanges, parseWindowPath, pushBelongs, windowData, windowFromData, windowVersion, type ChangesPush, type WindowState } from './bookingsWindow';
import { createLiveClinic } from './liveClinic';
import type { Snapshot } from '../store/types';

const FEED = 'clinics/demo-clinic/bookings';
const WINDOW = `${FEED}/2025-03-03/2025-03-05`;

const push = (day: string, version: number, ...changes: ChangesPush['changes']): ChangesPush => ({ path: FEED, day, version, changes });
const start = (): WindowState => ({
  bookings: { a1: row('a1'), a2: row('a2', { date: '2025-03-04' }) },
  days: { '2025-03-03': 2, '2025-03-04': 1, '2025-03-05': 0 },
});

describe('the bookings window, pure', () => {
  it('reads the window path and which pushes belong to it', () => {
    expect(parseWindowPath(WINDOW)).toEqual({ feed: FEED, from: '2025-03-03', to: '2025-03-05' });
    expect(parseWindowPath(FEED)).toBeNull();
    expect(parseWindowPath('clinics/demo-clinic/presence/2025-03-03/2025-03-05')).toBeNull();
    expect(pushBelongs(WINDOW, push('2025-03-05', 1))).toBe(true);
    expect(pushBelongs(WINDOW, push('2025-03-06', 1))).toBe(false);
    expect(pushBelongs(WINDOW, { ...push('2025-03-04', 1), path: 'clinics/other/bookings' })).toBe(false);
  });

  it('parses a changes event and refuses a malformed one', () => {
    const wire = { path: FEED, day: '2025-03-03', counselorId: null, version: 3, changes: [{ type: 'removed', appointmentId: 'a1' }] };
    expect(parseChanges(wire)).toEqual(push('2025-03-03', 3, { type: 'removed', appointmentId: 'a1' }));
    expect(parseChanges({ ...wire, changes: [{ type: 'added', appointmentId: 'a1' }] })).toBeNull(); // no doc
    expect(parseChanges({ ...wire, changes: [{ type: 'renamed', appointmentId: 'a1' }] })).toBeNull();
    expect(parseChanges({ ...wire, day: '3 March' })).toBeNull();
    expect(parseChanges('junk')).toBeNull();
  });

  it('applies added, modified and removed in version order per day; old pushes are skipped, a gap is told', () => {
    let state = start();
    const added = applyPush(state, push('2025-03-05', 1, { type: 'added', appointmentId: 'a3', doc: row('a3', { date: '2025-03-05' }) }));
    expect(added.kind).toBe('applied');
    if (added.kind !== 'applied') return;
    state = added.state;
    const moved = applyPush(state, push('2025-03-03', 3, { type: 'removed', appointmentId: 'a1' }));
    if (moved.kind !== 'applied') throw new Error(moved.kind);
    state = moved.state;
    const modified = applyPush(state, push('2025-03-04', 2, { type: 'modified', appointmentId: 'a2', doc: row('a2', { date: '2025-03-04', status: 'cancelled' }) }));
    if (modified.kind !== 'applied') throw new Error(modified.kind);
    state = modified.state;
    expect(Object.keys(state.bookings).sort()).toEqual(['a2', 'a3']);
    expect(state.bookings.a2?.status).toBe('cancelled');
    expect(state.days).toEqual({ '2025-03-03': 3, '2025-03-04': 2, '2025-03-05': 1 });
    expect(windowVersion(state)).toBe(6);
    // A move from the 5th to the 4th whose `added` came first: the later `removed` of the
    // 5th leaves the booking on the 4th.
    const first = applyPush(state, push('2025-03-04', 3, { type: 'added', appointmentId: 'a3', doc: row('a3', { date: '2025-03-04' }) }));
    if (first.kind !== 'applied') throw new Error(first.kind);
    const then = applyPush(first.state, push('2025-03-05', 2, { type: 'removed', appointmentId: 'a3' }));
    if (then.kind !== 'applied') throw new Error(then.kind);
    expect(then.state.bookings.a3?.date).toBe('2025-03-04');
    expect(applyPush(state, push('2025-03-04', 2)).kind).toBe('old');
    expect(applyPush(state, push('2025-03-04', 4)).kind).toBe('gap');
    expect(applyPush(state, push('2025-03-09', 1)).kind).toBe('old'); // not a day of the window
    expect((windowData(state).bookings as { appointmentId: string }[]).map((b) => b.appointmentId)).toEqual(['a2', 'a3']);
  });

  it('reads a snapshot of the window', () => {
    expect(windowFromData({ bookings: [row('a1'), 'junk'], days: { '2025-03-03': 2 } })).toEqual({
      bookings: { a1: row('a1') },
      days: { '2025-03-03': 2 },
    });
    expect(windowFromData({ bookings: [] })).toBeNull();
  });
});

describe('a followed window in the clinic documents', () => {
  const setup = () => {
    let snapshots: ((snapshot: Snapshot) => void) | null = null;
    let changes: ((payload: unknown) => void) | null = null;
    const subscribe = vi.fn(() => new Promise<Snapshot>(() => undefined)); // acks delivered by hand
    const live = createLiveClinic({
      subscribe,
      unsubscribe: () => Promise.resolve(),
      onSnapshot: (listener) => {
        snapshots = listener;
        return () => undefined;
      },
      onChanges: (listener) => {
        changes = listener;
        return () => undefined;
      },
    });
    const stop = live.follow(WINDOW);
    const snapshot = (state: WindowState) => {
      snapshots?.({ path: WINDOW, exists: true, data: { bookings: Object.values(state.bookings), days: state.days }, version: windowVersion(state) });
    };
    const send = (value: ChangesPush) => changes?.(value);
    const held = () => live.store.getState().documents[WINDOW];
    return { live, subscribe, stop, snapshot, send, held };
  };

  it('applies a push that overtook the snapshot once the snapshot comes', () => {
    const { snapshot, send, held } = setup();
    send(push('2025-03-05', 1, { type: 'added', appointmentId: 'a3', doc: row('a3', { date: '2025-03-05' }) }));
    expect(held()).toBeUndefined();
    snapshot(start());
    const ids = (held()?.data?.bookings as { appointmentId: string }[]).map((b) => b.appointmentId);
    expect(ids).toEqual(['a1', 'a2', 'a3']);
    expect(held()?.version).toBe(4);
  });

  it('subscribes again after a missed push, and forgets the window when let go', () => {
    const { subscribe, snapshot, send, held, stop, live } = setup();
    snapshot(start());
    expect(subscribe).toHaveBeenCalledTimes(1);
    send(push('2025-03-03', 4, { type: 'removed', appointmentId: 'a1' })); // 3 was missed
    expect(subscribe).toHaveBeenCalledTimes(2);
    expect(Object.keys(held()?.data?.bookings as object)).toHaveLength(2); // unchanged until then
    stop();
    expect(held()).toBeUndefined();
    expect(live.followed()).toEqual([]);
  });
});
