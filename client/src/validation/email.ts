/**
 * The login e-mail rule (docs/product.md "Validation rules and messages": "Enter your e-mail address." when empty,
 * else "Invalid email address."). It accepts what the
 * server's sendEmail-authLink accepts (one "@", no spaces, a dotted domain, at most 254
 * characters after trimming) and a little less: no empty domain labels.
 */
import { toHalfWidth } from './halfWidth';

export const MAX_EMAIL_LENGTH = 254;

const EMAIL_PATTERN = /^[^@\s]{1,64}@[^@\s.]+(?:\.[^@\s.]+)+$/;

/** The address as it is sent: full-width letters and signs half-width, surrounding spaces removed. */
export function normalizeEmail(value: string): string {
  return toHalfWidth(value).trim();
}

export function isValidEmail(value: string): boolean {
  const email = normalizeEmail(value);
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email);
}

/** The message key of the login field's error, null when the address is valid. */
export function emailFieldError(value: string): 'emailRequired' | 'invalidEmail' | null {
  if (normalizeEmail(value) === '') return 'emailRequired';
  return isValidEmail(value) ? null : 'invalidEmail';
}

/** The domain part of an address, lower-cased ('' when there is none). */
export function emailDomain(value: string): string {
  const email = normalizeEmail(value);
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).toLowerCase();
}
