/**
 * A refused update (INVALID_ARGUMENT) names its fields:
 * `details: {"fields": {<path>: <English message>}, "codes": {<path>: <key>}}`.
 */
import { FunctionsError } from '../realtime/errors';
import { isRecord } from '../isRecord';

export interface FieldRefusal {
  /** The problem key by field path (rule name or message key). */
  codes: Record<string, string>;
  /** The server's English words by field path (used when a key is unknown here). */
  messages: Record<string, string>;
}

function stringsOf(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry;
  return out;
}

/** The field problems of an INVALID_ARGUMENT refusal, or null for any other error. */
export function fieldRefusal(error: unknown): FieldRefusal | null {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument' || !isRecord(error.details)) return null;
  const codes = stringsOf(error.details.codes);
  const messages = stringsOf(error.details.fields);
  if (Object.keys(codes).length === 0 && Object.keys(messages).length === 0) return null;
  return { codes, messages };
}
