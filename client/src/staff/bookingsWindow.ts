/**
 * The bookings window `clinics/{clinicId}/bookings/{from}/{to}` (docs/protocol.md, "The
 * bookings window"), pure: its snapshot, the `changes` pushes of its day streams, and applying
 * them in order. Each day of the window has its own version; a push whose version is not the
 * next one of its day means one was missed: the window is subscribed again.
 */
import { isRecord } from '../isRecord';
import { CLINICS_PREFIX } from './clinicPaths';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export type ChangeType = 'added' | 'modified' | 'removed';

export interface DocumentChange {
  type: ChangeType;
  appointmentId: string;
  /** The booking as it is now (not for `removed`). */
  doc?: Record<string, unknown>;
}

/** The server's `changes` event: one day stream's changes of one committed write. */
export interface ChangesPush {
  /** The clinic's feed path, `clinics/{clinicId}/bookings`. */
  path: string;
  day: string;
  version: number;
  changes: DocumentChange[];
}

export interface WindowState {
  /** The bookings held, by appointment id. */
  bookings: Record<string, Record<string, unknown>>;
  /** The version held of each day of the window. */
  days: Record<string, number>;
}

const CHANGE_TYPES: readonly string[] = ['added', 'modified', 'removed'];

export function parseChanges(value: unknown): ChangesPush | null {
  if (!isRecord(value)) return null;
  const { path, day, version, changes } = value;
  if (typeof path !== 'string' || typeof day !== 'string' || !DAY.test(day)) return null;
  if (typeof version !== 'number' || !Array.isArray(changes)) return null;
  const parsed: DocumentChange[] = [];
  for (const change of changes as unknown[]) {
    if (!isRecord(change) || typeof change.type !== 'string' || !CHANGE_TYPES.includes(change.type)) return null;
    if (typeof change.appointmentId !== 'string') return null;
    const type = change.type as ChangeType;
    if (type !== 'removed' && !isRecord(change.doc)) return null;
    parsed.push(type === 'removed' ? { type, appointmentId: change.appointmentId } : { type, appointmentId: change.appointmentId, doc: change.doc as Record<string, unknown> });
  }
  return { path, day, version, changes: parsed };
}

/** `clinics/{clinicId}/bookings/{from}/{to}` -> its parts, or null for another path. */
export function parseWindowPath(path: string): { feed: string; from: string; to: string } | null {
  if (!path.startsWith(CLINICS_PREFIX)) return null;
  const [, clinicId, kind, from, to, ...rest] = path.split('/');
  if (clinicId === undefined || kind !== 'bookings' || from === undefined || to === undefined || rest.length > 0) return null;
  if (!DAY.test(from) || !DAY.test(to)) return null;
  return { feed: `${CLINICS_PREFIX}${clinicId}/bookings`, from, to };
}

/** Whether a push belongs to a window: its clinic's feed, one of its days. */
export function pushBelongs(path: string, push: ChangesPush): boolean {
  const window = parseWindowPath(path);
  return window !== null && window.feed === push.path && window.from <= push.day && push.day <= window.to;
}

/** A window snapshot's data -> the state it holds (null: not a window's data). */
export function windowFromData(data: unknown): WindowState | null {
  if (!isRecord(data) || !Array.isArray(data.bookings) || !isRecord(data.days)) return null;
  const bookings: WindowState['bookings'] = {};
  for (const row of data.bookings as unknown[]) {
    if (isRecord(row) && typeof row.appointmentId === 'string') bookings[row.appointmentId] = row;
  }
  const days: WindowState['days'] = {};
  for (const [day, version] of Object.entries(data.days)) {
    if (typeof version === 'number') days[day] = version;
  }
  return { bookings, days };
}

export type Applied = { kind: 'applied'; state: WindowState } | { kind: 'old' } | { kind: 'gap' };

/**
 * One push applied to a window's state: `old` when its day already holds that version (the
 * snapshot or an earlier push contained it), `gap` when a push of that day was missed.
 */
export function applyPush(state: WindowState, push: ChangesPush): Applied {
  const held = state.days[push.day];
  if (held === undefined || push.version <= held) return { kind: 'old' };
  if (push.version !== held + 1) return { kind: 'gap' };
  const bookings = new Map(Object.entries(state.bookings));
  for (const change of push.changes) {
    if (change.type === 'removed') {
      // Only from the day it leaves: the `added` of its new day may have come first.
      if (bookings.get(change.appointmentId)?.date === push.day) bookings.delete(change.appointmentId);
    } else if (change.doc !== undefined) bookings.set(change.appointmentId, change.doc);
  }
  return { kind: 'applied', state: { bookings: Object.fromEntries(bookings), days: { ...state.days, [push.day]: push.version } } };
}

/** The window's state as document data, like the v1 feed's: `{bookings: [...], days}`, in day and time order. */
export function windowData(state: WindowState): Record<string, unknown> {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const key = (row: Record<string, unknown>) => `${text(row.date)}T${text(row.time)}`;
  const bookings = Object.values(state.bookings).sort((a, b) => key(a).localeCompare(key(b)));
  return { bookings, days: state.days };
}

/** The sum of the days' versions: rises with every change applied (the document's version). */
export function windowVersion(state: WindowState): number {
  return Object.values(state.days).reduce((sum, version) => sum + version, 0);
}
