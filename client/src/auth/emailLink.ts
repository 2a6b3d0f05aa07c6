/**
 * What this device remembers between asking for a sign-in link and opening it (like
 * Firebase's `emailForSignIn`): the address, so the link opened on the same device signs in
 * at once, and the clinic and service it was asked for, so a new link can be asked for the
 * same booking. Removed once the link has signed the person in.
 */
import { FunctionsError } from '../realtime/errors';

export const EMAIL_FOR_SIGN_IN_KEY = 'genecounsel.emailForSignIn';
export const SIGN_IN_ENTRY_KEY = 'genecounsel.signInEntry';
/** Where the person was going when they asked for the link (a mail's link to their booking). */
export const NEXT_FOR_SIGN_IN_KEY = 'genecounsel.nextForSignIn';

/** The clinic and service a link was asked for (login screen route or query). */
export interface SignInEntry {
  clinicId?: string;
  serviceId?: string;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function rememberEmailForSignIn(email: string, entry: SignInEntry, next: string | null = null): void {
  try {
    storage()?.setItem(EMAIL_FOR_SIGN_IN_KEY, email);
    storage()?.setItem(SIGN_IN_ENTRY_KEY, JSON.stringify(entry));
    if (next === null) storage()?.removeItem(NEXT_FOR_SIGN_IN_KEY);
    else storage()?.setItem(NEXT_FOR_SIGN_IN_KEY, next);
  } catch {
    // Without storage the confirmation step asks for the address again.
  }
}

export function emailForSignIn(): string | null {
  try {
    const email = storage()?.getItem(EMAIL_FOR_SIGN_IN_KEY) ?? '';
    return email === '' ? null : email;
  } catch {
    return null;
  }
}

/** The path remembered with the address (unchecked: read it through auth/nextPath.ts). */
export function nextForSignIn(): string | null {
  try {
    return storage()?.getItem(NEXT_FOR_SIGN_IN_KEY) ?? null;
  } catch {
    return null;
  }
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

export function signInEntry(): SignInEntry {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(SIGN_IN_ENTRY_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    const record = parsed as Record<string, unknown>;
    const entry: SignInEntry = {};
    const clinicId = text(record.clinicId);
    const serviceId = text(record.serviceId);
    if (clinicId !== undefined) entry.clinicId = clinicId;
    if (serviceId !== undefined) entry.serviceId = serviceId;
    return entry;
  } catch {
    return {};
  }
}

export function forgetEmailForSignIn(): void {
  try {
    storage()?.removeItem(EMAIL_FOR_SIGN_IN_KEY);
    storage()?.removeItem(SIGN_IN_ENTRY_KEY);
    storage()?.removeItem(NEXT_FOR_SIGN_IN_KEY);
  } catch {
    // Nothing to forget.
  }
}

function refusalReason(error: unknown): unknown {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument') return undefined;
  const { details } = error;
  return typeof details === 'object' && details !== null ? (details as { reason?: unknown }).reason : undefined;
}

/** POST /auth/confirm refused the link: used, expired, unknown, or spent by too many wrong addresses. */
export function isLinkInvalid(error: unknown): boolean {
  return refusalReason(error) === 'link-invalid';
}

/** POST /auth/confirm refused a staff member of a clinic that signs its staff in at its own identity provider. */
export function isProviderStaff(error: unknown): boolean {
  if (!(error instanceof FunctionsError) || error.code !== 'permission-denied') return false;
  const { details } = error;
  return typeof details === 'object' && details !== null && (details as { reason?: unknown }).reason === 'use-identity-provider';
}

/** POST /auth/confirm refused the address (not the one the link went to); the link still works. */
export function isEmailMismatch(error: unknown): boolean {
  return refusalReason(error) === 'email-mismatch';
}
