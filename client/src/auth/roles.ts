/**
 * Who is signed in, by role (docs/protocol.md "Staff sign-in and roles"): a client (no staff
 * role) books for themselves; staff (`counselor` with a `counselorId`, or `clinic_admin`) work
 * on the clinic's side under `/staff`, after their second factor (`secondFactor`). The role
 * `clinic_staff` of servers before the two roles reads as `clinic_admin`.
 */
import type { AuthUser, SecondFactorState } from '../store/types';

export type StaffRole = 'counselor' | 'clinic_admin';

/** The staff role of a session role, null for a client (or an unknown role). */
export function staffRole(role: string | null | undefined): StaffRole | null {
  if (role === 'counselor') return 'counselor';
  if (role === 'clinic_admin' || role === 'clinic_staff') return 'clinic_admin';
  return null;
}

export function isStaff(user: AuthUser | null | undefined): boolean {
  return staffRole(user?.role) !== null;
}

/** A staff session's second factor; "ok" when the server does not say. */
export function secondFactorOf(user: AuthUser | null | undefined): SecondFactorState {
  return user?.secondFactor ?? 'ok';
}

/** Where a signed-in person starts: staff on their board (or its second factor), clients in the booking. */
export const STAFF_HOME = '/staff';
export const SECOND_FACTOR_PATH = '/staff/second-factor';
