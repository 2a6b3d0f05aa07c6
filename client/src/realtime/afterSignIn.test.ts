import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../store';
import type { AuthUser, Snapshot } from '../store/types';
import { bindAfterSignIn } from './afterSignIn';
import type { CallFunction } from './callable';
import { FunctionsError } from './errors';
import type { SessionNotice } from './events';

const alice: AuthUser = { uid: 'u1', email: 'alice@example.com', role: 'client', clinicId: null };

const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

type Answer = (data: unknown) => unknown;

/** A fake server end: function answers by name, updates recorded, socket events fired by hand. */
function setup(answers: Record<string, Answer> = {}, user: AuthUser = alice) {
  const store = createAppStore('en');
  const calls: { name: string; data: unknown }[] = [];
  /** Updates and calls in the order they reached the server. */
  const log: string[] = [];
  const updates: { path: string; data: Record<string, unknown>; baseVersion: number | undefined }[] = [];
  let updateAnswer: () => Promise<{ version: number }> = () => Promise.resolve({ version: 99 });
  const connectErrorListeners = new Set<(error: Error) => void>();
  const sessionListeners = new Set<(notice: SessionNotice) => void>();

  const call = vi.fn(async (name: string, data?: unknown) => {
    calls.push({ name, data });
    log.push(name);
    const answer = answers[name];
    if (!answer) return { ok: true };
    return answer(data);
  }) as unknown as CallFunction;
  const signOut = vi.fn(async () => {
    store.getState().reset();
    store.getState().setAuthUser(null);
  });
  const goToLogin = vi.fn();

  const stop = bindAfterSignIn({
    store,
    realtime: {
      update: (path, data, baseVersion) => {
        updates.push({ path, data, baseVersion });
        log.push(`update ${path}`);
        return updateAnswer();
      },
      onConnectError: (listener) => {
        connectErrorListeners.add(listener);
        return () => connectErrorListeners.delete(listener);
      },
      onSession: (listener) => {
        sessionListeners.add(listener);
        return () => sessionListeners.delete(listener);
      },
    },
    call,
    signOut,
    goToLogin,
    userAgent: `Mozilla/5.0 ${'x'.repeat(600)}`,
    appVersion: '1.2.3',
    route: () => '/b/clinic',
    warn: () => undefined,
  });
  store.getState().setAuthUser(user);

  const push = (snapshot: Snapshot) => {
    store.getState().receiveSnapshot(snapshot);
  };
  const pushUser = (version: number, data: Record<string, unknown>) => {
    push({ path: `users/${user.uid}`, exists: true, data, version });
  };
  return {
    store,
    calls,
    log,
    updates,
    signOut,
    goToLogin,
    stop,
    push,
    pushUser,
    namesCalled: () => calls.map((c) => c.name),
    failUpdatesWith: (error: Error) => {
      updateAnswer = () => Promise.reject(error);
    },
    fireConnectError: (message: string) => {
      for (const listener of connectErrorListeners) listener(new Error(message));
    },
    fireSession: (notice: SessionNotice) => {
      for (const listener of sessionListeners) listener(notice);
    },
  };
}

describe('after sign-in: the user record', () => {
  it('writes locale, user agent (cut to 512) and version in one update when no locale is saved', async () => {
    const t = setup({ 'appointment-create': () => ({ appointmentId: 'a1' }) });
    t.pushUser(1, { appointmentId: 'a1' });
    await flush();
    expect(t.updates).toHaveLength(1);
    const [write] = t.updates;
    expect(write?.path).toBe('users/u1');
    expect(write?.baseVersion).toBe(1);
    expect(Object.keys(write?.data ?? {}).sort()).toEqual(['locale', 'userAgent', 'version']);
    expect(write?.data.locale).toBe('en');
    expect(write?.data.version).toBe('1.2.3');
    expect(String(write?.data.userAgent)).toHaveLength(512);
    expect(String(write?.data.userAgent).startsWith('Mozilla/5.0 ')).toBe(true);
  });

  it('writes nothing when the record already has a valid locale, and takes that locale', async () => {
    const t = setup();
    t.pushUser(4, { locale: 'ja', appointmentId: 'a1', userAgent: 'old', version: '0.0.1' });
    await flush();
    expect(t.updates).toEqual([]);
    expect(t.store.getState().locale).toBe('ja');
  });

  it('treats an invalid saved locale as none', async () => {
    const t = setup();
    t.pushUser(2, { locale: 'fr', appointmentId: 'a1' });
    await flush();
    expect(t.updates.map((u) => u.data.locale)).toEqual(['en']);
  });

  it('does not overwrite a locale saved meanwhile elsewhere: a stale write is dropped quietly', async () => {
    const t = setup();
    t.failUpdatesWith(new FunctionsError('aborted', 'stale baseVersion'));
    t.pushUser(1, { appointmentId: 'a1' });
    await flush();
    t.pushUser(2, { appointmentId: 'a1', locale: 'ja' });
    await flush();
    expect(t.updates).toHaveLength(1);
    expect(t.store.getState().locale).toBe('ja');
  });

  it('writes the language the person picks later as the record locale', async () => {
    const t = setup();
    t.pushUser(3, { locale: 'en', appointmentId: 'a1' });
    await flush();
    t.store.getState().setLocale('ja');
    await flush();
    expect(t.updates).toEqual([{ path: 'users/u1', data: { locale: 'ja' }, baseVersion: undefined }]);
  });

  it('does nothing before anyone signs in', async () => {
    const t = setup();
    t.store.getState().reset();
    t.store.getState().setAuthUser(null);
    await flush();
    t.store.getState().setLocale('ja');
    await flush();
    expect(t.updates).toEqual([]);
    expect(t.calls).toEqual([]);
  });
});

describe('after sign-in: the appointment', () => {
  it('creates the appointment once when the record has none', async () => {
    const t = setup({ 'appointment-create': () => ({ appointmentId: 'a1' }) });
    t.pushUser(1, { locale: 'en' });
    await flush();
    t.pushUser(2, { locale: 'en', userAgent: 'x' });
    await flush();
    expect(t.namesCalled()).toEqual(['appointment-create']);
    expect(t.goToLogin).not.toHaveBeenCalled();
  });

  it('writes the locale before asking for the appointment (its e-mail language)', async () => {
    const t = setup({ 'appointment-create': () => ({ appointmentId: 'a1' }) });
    t.pushUser(1, {});
    await flush();
    expect(t.log).toEqual(['update users/u1', 'appointment-create']);
  });

  it('does not create one when the record names an appointment', async () => {
    const t = setup();
    t.pushUser(1, { locale: 'ja', appointmentId: 'a1' });
    await flush();
    expect(t.namesCalled()).not.toContain('appointment-create');
  });

  it.each(['cancelled', 'completed', 'no_show', 'expired'])(
    'creates nothing when the record names an appointment that is %s: the person chooses how to start again',
    async (status) => {
      const t = setup({ 'appointment-create': () => ({ appointmentId: 'a2' }) });
      t.pushUser(1, { locale: 'en', appointmentId: 'a1' });
      t.push({ path: 'appointments/a1', exists: true, data: { id: 'a1', status }, version: 5 });
      await flush();
      expect(t.namesCalled()).not.toContain('appointment-create');
      expect(t.goToLogin).not.toHaveBeenCalled();
    },
  );

  it('reports a failure to the admin, signs out and returns to login with a notice', async () => {
    const t = setup({
      'appointment-create': () => {
        throw new FunctionsError('invalid-argument', 'Choose a clinic and a service first.', { fields: {} });
      },
    });
    t.pushUser(1, { locale: 'en' });
    await flush();
    expect(t.namesCalled()).toEqual(['appointment-create', 'sendEmail-admin']);
    const report = t.calls[1]?.data as Record<string, unknown>;
    expect(report).toMatchObject({
      locale: 'en',
      route: '/b/clinic',
      error: { code: 'invalid-argument', message: 'Choose a clinic and a service first.', details: { fields: {} } },
      context: { step: 'appointment-create' },
    });
    expect(String(report.userAgent)).toHaveLength(512);
    expect(typeof (report.error as { stack: unknown }).stack).toBe('string');
    expect(t.signOut).toHaveBeenCalledTimes(1);
    expect(t.goToLogin).toHaveBeenCalledTimes(1);
    expect(t.store.getState().session.user).toBeNull();
    expect(t.store.getState().loginNotice).toBe('appointmentFailed');
  });

  it('still signs out when the report itself fails', async () => {
    const t = setup({
      'appointment-create': () => {
        throw new FunctionsError('unavailable', 'down');
      },
      'sendEmail-admin': () => {
        throw new FunctionsError('resource-exhausted', 'too many');
      },
    });
    t.pushUser(1, { locale: 'en' });
    await flush();
    expect(t.signOut).toHaveBeenCalledTimes(1);
    expect(t.store.getState().loginNotice).toBe('appointmentFailed');
  });

  it.each(['clinic_staff', 'clinic_admin', 'counselor'])('leaves staff accounts (%s) without an appointment', async (role) => {
    const t = setup({}, { uid: 's1', email: 'staff@demo-clinic.example', role, clinicId: 'demo-clinic' });
    t.pushUser(1, { locale: 'ja' });
    await flush();
    expect(t.namesCalled()).toEqual([]);
  });

  it('reads clinic and service when their ids change, not on every push', async () => {
    const t = setup({
      'clinic-read': (data) => ({ id: (data as { id: string }).id, name: { ja: 'デモ', en: 'Demo' } }),
      'service-read': (data) => ({ id: (data as { id: string }).id, category: 'pgt' }),
    });
    t.pushUser(1, { locale: 'en', appointmentId: 'a1' });
    const appointment = (version: number, data: Record<string, unknown>) => {
      t.push({ path: 'appointments/a1', exists: true, data, version });
    };
    appointment(1, { clinicId: 'demo-clinic', serviceId: 'pgt-post', status: 'draft' });
    await flush();
    appointment(2, { clinicId: 'demo-clinic', serviceId: 'pgt-post', status: 'draft', patientRole: 0 });
    appointment(3, { clinicId: 'demo-clinic', serviceId: 'pgt-post', status: 'draft', agreedToTerms: true });
    await flush();
    expect(t.calls).toEqual([
      { name: 'clinic-read', data: { id: 'demo-clinic' } },
      { name: 'service-read', data: { id: 'pgt-post', clinicId: 'demo-clinic' } },
    ]);
    expect(t.store.getState().documents.clinic).toMatchObject({ path: 'clinics/demo-clinic', exists: true });
    expect(t.store.getState().documents.service?.data).toEqual({ id: 'pgt-post', category: 'pgt' });

    appointment(4, { clinicId: 'demo-clinic', serviceId: 'prenatal-b2b' });
    await flush();
    expect(t.namesCalled()).toEqual(['clinic-read', 'service-read', 'service-read']);
    expect(t.calls[2]?.data).toEqual({ id: 'prenatal-b2b', clinicId: 'demo-clinic' });
  });
});

describe('after sign-in: the session ends on the server', () => {
  it('signs out and returns to login when the socket is refused as unauthenticated', async () => {
    const t = setup();
    t.pushUser(1, { locale: 'en', appointmentId: 'a1' });
    await flush();
    t.fireConnectError('xhr poll error');
    await flush();
    expect(t.signOut).not.toHaveBeenCalled();
    t.fireConnectError('unauthenticated');
    await flush();
    expect(t.signOut).toHaveBeenCalledTimes(1);
    expect(t.goToLogin).toHaveBeenCalledTimes(1);
    expect(t.store.getState().documents.user).toBeNull();
    expect(t.store.getState().loginNotice).toBe('sessionEnded');
  });

  it('signs out on a session event "expired", only once', async () => {
    const t = setup();
    t.fireSession({ state: 'warning', secondsLeft: 30 });
    await flush();
    expect(t.signOut).not.toHaveBeenCalled();
    t.fireSession({ state: 'expired', secondsLeft: 0 });
    t.fireSession({ state: 'expired', secondsLeft: 0 });
    await flush();
    expect(t.signOut).toHaveBeenCalledTimes(1);
  });
});
