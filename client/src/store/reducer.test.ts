import { describe, expect, it } from 'vitest';
import { initialData } from './initial';
import { applySnapshot } from './reducer';
import type { StoreData } from './types';

const signedIn: StoreData = {
  ...initialData('ja'),
  session: { user: { uid: 'u1', email: 'a@example.com', role: null, clinicId: null }, authReady: true },
};

function appointment(version: number, status: string) {
  return { path: 'appointments/a1', exists: true, data: { id: 'a1', status }, version };
}

describe('applySnapshot', () => {
  it('holds the appointment snapshot with its version', () => {
    const next = applySnapshot(signedIn, appointment(3, 'draft'));
    expect(next.documents.appointment).toEqual({
      path: 'appointments/a1',
      exists: true,
      data: { id: 'a1', status: 'draft' },
      version: 3,
    });
  });

  it('takes a newer version', () => {
    const v3 = applySnapshot(signedIn, appointment(3, 'draft'));
    const v4 = applySnapshot(v3, appointment(4, 'confirmed'));
    expect(v4.documents.appointment?.data).toEqual({ id: 'a1', status: 'confirmed' });
    expect(v4.documents.appointment?.version).toBe(4);
  });

  it('ignores an older version that arrives after a newer push (ack overtaken)', () => {
    const pushed = applySnapshot(signedIn, appointment(5, 'confirmed'));
    const lateAck = applySnapshot(pushed, appointment(4, 'draft'));
    expect(lateAck).toBe(pushed);
    expect(lateAck.documents.appointment?.data?.status).toBe('confirmed');
  });

  it('treats the same version again as no change', () => {
    const once = applySnapshot(signedIn, appointment(2, 'draft'));
    expect(applySnapshot(once, appointment(2, 'draft'))).toBe(once);
  });

  it('replaces the appointment when another appointment path arrives', () => {
    const first = applySnapshot(signedIn, appointment(9, 'cancelled'));
    const second = applySnapshot(first, { path: 'appointments/a2', exists: true, data: { id: 'a2' }, version: 1 });
    expect(second.documents.appointment?.path).toBe('appointments/a2');
    expect(second.documents.appointment?.version).toBe(1);
  });

  it('records a deleted document as not existing, without data', () => {
    const held = applySnapshot(signedIn, appointment(1, 'draft'));
    const gone = applySnapshot(held, { path: 'appointments/a1', exists: false, data: { stale: true }, version: 2 });
    expect(gone.documents.appointment).toEqual({ path: 'appointments/a1', exists: false, data: null, version: 2 });
  });

  it("holds only the signed-in person's own user record", () => {
    const own = applySnapshot(signedIn, { path: 'users/u1', exists: true, data: { appointmentId: 'a1' }, version: 1 });
    expect(own.documents.user?.data).toEqual({ appointmentId: 'a1' });
    const other = applySnapshot(own, { path: 'users/u2', exists: true, data: { appointmentId: 'x' }, version: 7 });
    expect(other).toBe(own);
    expect(applySnapshot(initialData('ja'), { path: 'users/u1', exists: true, data: {}, version: 1 })).toEqual(
      initialData('ja'),
    );
  });

  it('ignores paths the store does not hold', () => {
    const vacancies = { path: 'vacancies/c/s/2025-03', exists: true, data: { slots: [] }, version: 1 };
    expect(applySnapshot(signedIn, vacancies)).toBe(signedIn);
  });

  it("switches the interface language to the user record's valid locale", () => {
    const english = applySnapshot(signedIn, { path: 'users/u1', exists: true, data: { locale: 'en' }, version: 1 });
    expect(english.locale).toBe('en');
    const invalid = applySnapshot(signedIn, { path: 'users/u1', exists: true, data: { locale: 'fr' }, version: 1 });
    expect(invalid.locale).toBe('ja');
  });

  it('keeps a language the person switched to until the record itself changes its locale', () => {
    const fromRecord = applySnapshot(signedIn, { path: 'users/u1', exists: true, data: { locale: 'ja' }, version: 1 });
    const switched = { ...fromRecord, locale: 'en' as const };
    const unrelated = applySnapshot(switched, {
      path: 'users/u1',
      exists: true,
      data: { locale: 'ja', appointmentId: 'a1' },
      version: 2,
    });
    expect(unrelated.locale).toBe('en');
    const sameAgain = applySnapshot(unrelated, { path: 'users/u1', exists: true, data: { locale: 'ja' }, version: 3 });
    expect(sameAgain.locale).toBe('en');
    const recordToEn = applySnapshot({ ...sameAgain, locale: 'ja' }, {
      path: 'users/u1',
      exists: true,
      data: { locale: 'en' },
      version: 4,
    });
    expect(recordToEn.locale).toBe('en');
  });
});
