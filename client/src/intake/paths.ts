/**
 * Dot-separated field paths ("intake.contactInfo.phone", "patientRole") over plain objects, as
 * the appointment document and the update `data` keys use them (docs/protocol.md "Live documents").
 */
import { isRecord } from '../isRecord';

/** The value at `path` in `source`, or undefined when any part is missing. */
export function getPath(source: unknown, path: string): unknown {
  let current: unknown = source;
  for (const part of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(part)) {
      current = current[Number(part)];
    } else if (isRecord(current)) {
      current = current[part];
    } else {
      return undefined;
    }
  }
  return current;
}

/** A copy of `target` with `value` at `path` (objects created on the way; arrays kept). */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (head === undefined) return target;
  if (rest.length === 0) return { ...target, [head]: value };
  const child = target[head];
  return { ...target, [head]: setPath(isRecord(child) ? child : {}, rest.join('.'), value) };
}

/** Structural equality of JSON-like values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => deepEqual(item, b[index]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!deepEqual(a[key], b[key])) return false;
    return true;
  }
  return false;
}


/** A DOM id for a field path ("intake.familyMembers.0.side" -> "field-intake-familyMembers-0-side"). */
export function fieldDomId(path: string): string {
  return `field-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
