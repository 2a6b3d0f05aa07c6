/**
 * Errors of callable functions and live-document events, in the Firebase client's shape.
 */
import {
  codeForHttpStatus,
  codeForStatus,
  functionsErrorCodes,
  isErrorStatus,
  type FunctionsErrorCode,
} from '../contract';
import { isRecord } from '../isRecord';

export type { FunctionsErrorCode } from '../contract';

export class FunctionsError extends Error {
  override readonly name = 'FunctionsError';

  constructor(
    readonly code: FunctionsErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function isFunctionsErrorCode(value: unknown): value is FunctionsErrorCode {
  return typeof value === 'string' && (functionsErrorCodes as readonly string[]).includes(value);
}

/**
 * The error of a wire reply `{"error": {"status", "message", "details"}}`.
 * The code comes from `status` when the contract knows it, else from the HTTP status
 * (when there is one), else "unknown". Returns null when the body carries no error object.
 */
export function errorFromWire(body: unknown, httpStatus?: number): FunctionsError | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { status, message, details } = body.error;
  const code = isErrorStatus(status)
    ? codeForStatus(status)
    : httpStatus === undefined
      ? 'unknown'
      : codeForHttpStatus(httpStatus);
  return new FunctionsError(code, typeof message === 'string' ? message : code, details);
}

/** `details.reason` of a call a booking mail's link session may not make (realtime/link_scope.py). */
export const LINK_SCOPE_REASON = 'link-scope';

/** The translation key that tells the person what went wrong, in their language ("sign in to see more" for a mail link's session). */
export function errorMessageKey(error: unknown): `errors:${FunctionsErrorCode | 'linkScope'}` {
  if (error instanceof FunctionsError && isRecord(error.details) && error.details.reason === LINK_SCOPE_REASON) return 'errors:linkScope';
  return `errors:${error instanceof FunctionsError ? error.code : 'unknown'}`;
}
