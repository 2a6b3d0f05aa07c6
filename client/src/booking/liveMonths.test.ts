import { describe, expect, it, vi } from 'vitest';
import { FunctionsError } from '../realtime/errors';
import type { Snapshot } from '../store/types';
import { createLiveMonths } from './liveMonths';

function setup() {
  const listeners = new Set<(snapshot: Snapshot) => void>();
  const pending = new Map<string, { resolve: (s: Snapshot) => void; reject: (e: unknown) => void }>();
  const deps = {
    subscribe: vi.fn(
      (path: string) =>
        new Promise<Snapshot>((resolve, reject) => {
          pending.set(path, { resolve, reject });
        }),
    ),
    unsubscribe: vi.fn(async () => undefined),
    onSnapshot: (listener: (snapshot: Snapshot) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const live = createLiveMonths(deps);
  const push = (snapshot: Snapshot) => {
    for (const listener of listeners) listener(snapshot);
  };
  return { live, deps, pending, push };
}

const path = 'vacancies/demo-clinic/cancer-svc/2025-03';
const month = (version: number, slots: unknown[] = []) => ({ path, exists: true, data: { timezone: 'Asia/Tokyo', slots }, version });

describe('live month documents', () => {
  it('subscribes once per path however many follow it, and lets go with the last one', () => {
    const { live, deps } = setup();
    const first = live.follow(path);
    const second = live.follow(path);
    expect(deps.subscribe).toHaveBeenCalledTimes(1);
    first();
    first(); // twice is once
    expect(deps.unsubscribe).not.toHaveBeenCalled();
    second();
    expect(deps.unsubscribe).toHaveBeenCalledWith(path);
    expect(live.followed()).toEqual([]);
  });

  it('holds the subscribe ack and newer pushes only, in version order', async () => {
    const { live, pending, push } = setup();
    live.follow(path);
    push(month(5, ['a']));
    pending.get(path)?.resolve(month(4)); // the ack overtaken by a push
    await Promise.resolve();
    expect(live.store.getState().months[path]?.version).toBe(5);
    push(month(6, ['b']));
    expect(live.store.getState().months[path]?.data).toEqual({ timezone: 'Asia/Tokyo', slots: ['b'] });
  });

  it('ignores paths it does not follow and forgets a month let go of', () => {
    const { live, push } = setup();
    const release = live.follow(path);
    push({ ...month(1), path: 'vacancies/demo-clinic/cancer-svc/2025-04' });
    push({ ...month(1), path: 'appointments/a1' });
    expect(Object.keys(live.store.getState().months)).toEqual([]);
    push(month(1));
    release();
    expect(live.store.getState().months).toEqual({});
  });

  it('records why a month could not be followed', async () => {
    const { live, pending } = setup();
    live.follow(path);
    pending.get(path)?.reject(new FunctionsError('permission-denied', 'no'));
    await Promise.resolve();
    await Promise.resolve();
    expect(live.store.getState().errors[path]).toBe('permission-denied');
  });
});
