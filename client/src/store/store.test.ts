import { describe, expect, it } from 'vitest';
import { createAppStore, startupLocale } from './index';
import {
  selectAppointment,
  selectAppointmentId,
  selectAuthReady,
  selectAuthUser,
  selectClinic,
  selectIsSignedIn,
  selectLocale,
  selectLoginNotice,
  selectService,
  selectUserDocument,
} from './selectors';

const alice = { uid: 'u1', email: 'alice@example.com', role: null, clinicId: null };
const bob = { uid: 'u2', email: 'bob@example.com', role: 'staff', clinicId: 'demo-clinic' };

describe('session slice', () => {
  it('starts signed out and not ready', () => {
    const store = createAppStore('ja');
    expect(selectAuthReady(store.getState())).toBe(false);
    expect(selectAuthUser(store.getState())).toBeNull();
  });

  it('becomes ready on the first authentication state, even a signed-out one', () => {
    const store = createAppStore('ja');
    store.getState().setAuthUser(null);
    expect(selectAuthReady(store.getState())).toBe(true);
    expect(selectIsSignedIn(store.getState())).toBe(false);
    store.getState().setAuthUser(alice);
    expect(selectIsSignedIn(store.getState())).toBe(true);
    expect(selectAuthUser(store.getState())).toEqual(alice);
  });

  it("drops the previous person's documents when someone else signs in", () => {
    const store = createAppStore('ja');
    store.getState().setAuthUser(alice);
    store.getState().receiveSnapshot({ path: 'users/u1', exists: true, data: { appointmentId: 'a1' }, version: 1 });
    store.getState().setAuthUser({ ...alice, role: 'client' });
    expect(selectAppointmentId(store.getState())).toBe('a1');
    store.getState().setAuthUser(bob);
    expect(selectUserDocument(store.getState())).toBeNull();
  });
});

describe('documents slice', () => {
  it('feeds snapshots through the reducer, ignoring older versions', () => {
    const store = createAppStore('ja');
    store.getState().setAuthUser(alice);
    store.getState().receiveSnapshot({ path: 'appointments/a1', exists: true, data: { status: 'confirmed' }, version: 5 });
    const before = store.getState();
    store.getState().receiveSnapshot({ path: 'appointments/a1', exists: true, data: { status: 'draft' }, version: 4 });
    expect(store.getState()).toBe(before);
    expect(selectAppointment(store.getState())?.data).toEqual({ status: 'confirmed' });
  });

  it('holds clinic and service read through functions', () => {
    const store = createAppStore('ja');
    store.getState().setReadDocument('clinic', 'demo-clinic', { name: 'Demo' });
    store.getState().setReadDocument('service', 'pgt-post', null);
    expect(selectClinic(store.getState())).toEqual({
      path: 'clinics/demo-clinic',
      exists: true,
      data: { name: 'Demo' },
      version: 0,
    });
    expect(selectService(store.getState())?.exists).toBe(false);
  });

  it('reads the appointment id only when the user record names one', () => {
    const store = createAppStore('ja');
    store.getState().setAuthUser(alice);
    expect(selectAppointmentId(store.getState())).toBeNull();
    store.getState().receiveSnapshot({ path: 'users/u1', exists: true, data: { appointmentId: '' }, version: 1 });
    expect(selectAppointmentId(store.getState())).toBeNull();
  });
});

describe('locale slice', () => {
  it('starts with the start-up locale and switches on request', () => {
    const store = createAppStore('en');
    expect(selectLocale(store.getState())).toBe('en');
    store.getState().setLocale('ja');
    expect(selectLocale(store.getState())).toBe('ja');
  });

  it('takes the start-up locale from the query, then the browser', () => {
    const page = (search: string, languages: string[]) =>
      ({ location: { search }, navigator: { languages } }) as unknown as Window;
    expect(startupLocale(page('?locale=en', ['ja-JP']))).toBe('en');
    expect(startupLocale(page('?locale=xx', ['en-US']))).toBe('en');
    expect(startupLocale(page('', ['de-DE']))).toBe('ja');
  });
});

describe('reset (sign-out)', () => {
  it('returns every slice to its initial state', () => {
    const store = createAppStore('ja');
    const initial = store.getState();
    store.getState().setAuthUser(alice);
    store.getState().receiveSnapshot({ path: 'users/u1', exists: true, data: { locale: 'en', appointmentId: 'a1' }, version: 3 });
    store.getState().receiveSnapshot({ path: 'appointments/a1', exists: true, data: {}, version: 8 });
    store.getState().setReadDocument('clinic', 'c', {});
    store.getState().setLoginNotice('sessionEnded');
    expect(selectLocale(store.getState())).toBe('en');

    store.getState().reset();

    const after = store.getState();
    expect(after.session).toEqual(initial.session);
    expect(after.documents).toEqual(initial.documents);
    expect(after.locale).toBe('ja');
    expect(selectLoginNotice(after)).toBeNull();
    // A new sign-in starts from scratch: version 1 of the appointment is taken again.
    store.getState().setAuthUser(alice);
    store.getState().receiveSnapshot({ path: 'appointments/a1', exists: true, data: { n: 1 }, version: 1 });
    expect(selectAppointment(store.getState())?.version).toBe(1);
  });
});
