/**
 * Test helpers of the staff screens (imported by tests only): staff identities as
 * `/auth/session` gives them, rows of the bookings feed, and the clinic documents pushed as the
 * server would once the screen follows them.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { liveClinic } from '../staff/liveClinic';
import type { AuthUser } from '../store/types';

/** Today's staff account (role `clinic_staff`, no second factor field). */
export const staffToday: AuthUser = { uid: 's1', email: 'staff@demo-clinic.example', role: 'clinic_staff', clinicId: 'demo-clinic' };
export const admin: AuthUser = { ...staffToday, role: 'clinic_admin', secondFactor: 'ok' };
export const counselorSato: AuthUser = {
  uid: 's2',
  email: 'sato@demo-clinic.example',
  role: 'counselor',
  clinicId: 'demo-clinic',
  counselorId: 'c-sato',
  secondFactor: 'ok',
};

/** A row of `clinics/{clinicId}/bookings`: confirmed, 3 March 2025 10:00 Tokyo, c-sato. */
export function bookingRow(id: string, fields: Partial<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    appointmentId: id,
    serviceId: 'cancer-b2b',
    status: 'confirmed',
    date: '2025-03-03',
    time: '10:00',
    timezone: 'Asia/Tokyo',
    counselorId: 'c-sato',
    holdExpiresAt: null,
    payment: null,
    updated: '2025-03-02T00:00:00Z',
    ...fields,
  };
}

const versions = new Map<string, number>();

/** The server pushes the next version of a clinic document, once the screen follows it. */
export async function pushClinicDocument(path: string, data: Record<string, unknown>): Promise<void> {
  await waitFor(() => {
    expect(liveClinic.followed()).toContain(path);
  });
  const version = (versions.get(path) ?? 0) + 1;
  versions.set(path, version);
  act(() => {
    liveClinic.receive({ path, exists: true, data, version });
  });
}

export function resetClinicDocuments(): void {
  versions.clear();
}

/** An entry of `staff-audit-read` by the demo clinic's administrator. */
export function auditEntry(id: number, action: string, detail: Record<string, unknown>): Record<string, unknown> {
  return { id, at: '2025-03-03T00:05:00Z', uid: 's1', email: 'staff@demo-clinic.example', role: 'clinic_admin', clinicId: 'demo-clinic', appointmentId: null, action, detail, clientAddress: null };
}

/** The detail column of the audit screen's table, row by row. */
export function auditDetails(): (string | null | undefined)[] {
  return within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[4]?.textContent);
}
