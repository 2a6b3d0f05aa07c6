/**
 * Test helpers of the questionnaire screens: a signed-in person whose appointment, service
 * and clinic are in the store, as the realtime bindings and after-sign-in logic put them there.
 */
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import { outbox } from '../realtime';
import { useAppStore } from '../store';

export const CONSENT_VERSION = '2026-11';

export { completeIntake } from './answers';

export interface SeedOptions {
  category?: 'prenatal' | 'pgt' | 'cancer';
  /** The appointment's `intake` section. */
  intake?: Record<string, unknown>;
  /** Other appointment fields (patientRole, agreedToTerms, ...). */
  fields?: Record<string, unknown>;
  consent?: boolean;
  locale?: 'ja' | 'en';
}

let version = 1;
let current: Record<string, unknown> = {};

/** Puts the appointment a1 (and its service and clinic) in the store. Call after renderApp. */
export function seedAppointment({ category = 'prenatal', intake = {}, fields = {}, consent = true, locale = 'en' }: SeedOptions = {}) {
  version = 1;
  current = {
    id: 'a1',
    clinicId: 'demo-clinic',
    serviceId: `${category}-svc`,
    status: 'draft',
    ...(consent ? { consent: { version: CONSENT_VERSION, givenAt: '2025-03-05T01:00:00Z' } } : {}),
    intake,
    ...fields,
  };
  act(() => {
    const state = useAppStore.getState();
    state.receiveSnapshot({ path: 'users/u1', exists: true, data: { appointmentId: 'a1', locale }, version: 1 });
    state.receiveSnapshot({ path: 'appointments/a1', exists: true, data: current, version });
    state.setReadDocument('service', `${category}-svc`, { id: `${category}-svc`, category, consentVersion: CONSENT_VERSION });
    state.setReadDocument('clinic', 'demo-clinic', { id: 'demo-clinic', timezone: 'Asia/Tokyo' });
  });
}

/** A push of the appointment from the server (another tab's save): the next version, `data` merged in. */
export function pushAppointment(data: Record<string, unknown>) {
  version += 1;
  current = { ...current, ...data };
  act(() => {
    useAppStore.getState().receiveSnapshot({ path: 'appointments/a1', exists: true, data: current, version });
  });
}

/** Replaces the outbox's send; resolves at once unless told otherwise. */
export function fakeSaves(answer: (data: Record<string, unknown>) => Promise<{ version: number }> = async () => ({ version: 2 })) {
  return vi.spyOn(outbox, 'send').mockImplementation((_path, data) => answer(data));
}
