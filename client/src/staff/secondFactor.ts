/** The second factor's input and enrolment reply, pure (docs/protocol.md "Names fixed ..."). */
import { isRecord } from '../isRecord';
import { parseQrSvg, type QrDrawing } from './qrDrawing';

/** What the person typed, as sent: spaces and hyphens inside a 6-digit code dropped, else trimmed. */
export function normalizeCode(input: string): string {
  const trimmed = input.trim();
  const digits = trimmed.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : trimmed;
}

/** A 6-digit code, or something shaped like a recovery code (8 to 64 letters, digits, hyphens). */
export function codeProblem(input: string): 'required' | 'invalidFormat' | null {
  const code = normalizeCode(input);
  if (code === '') return 'required';
  if (/^\d{6}$/.test(code)) return null;
  return /^[A-Za-z0-9-]{8,64}$/.test(code) ? null : 'invalidFormat';
}

export interface Enrolment {
  otpauthUri: string;
  /** The base32 secret of the URI, for typing into an app by hand (null when absent). */
  secret: string | null;
  recoveryCodes: string[];
  /** The set-up address as a QR code (`qrSvg`), null when absent or not one. */
  qr: QrDrawing | null;
}

/** `auth-totpEnroll`'s reply, or null when malformed. */
export function parseEnrolment(data: unknown): Enrolment | null {
  if (!isRecord(data) || typeof data.otpauthUri !== 'string' || !data.otpauthUri.startsWith('otpauth://')) return null;
  const codes = Array.isArray(data.recoveryCodes) ? data.recoveryCodes.filter((c): c is string => typeof c === 'string') : [];
  let secret: string | null;
  try {
    secret = new URL(data.otpauthUri).searchParams.get('secret');
  } catch {
    secret = null;
  }
  return { otpauthUri: data.otpauthUri, secret, recoveryCodes: codes, qr: parseQrSvg(data.qrSvg) };
}
