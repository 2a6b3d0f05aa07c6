/** A plain object read from the wire or a document (not null, not an array): its keys may be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
