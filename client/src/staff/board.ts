/**
 * The staff board's logic, pure: the bookings feed and the presence document read from the
 * wire (docs/protocol.md "Booking", "Presence and inactivity"), the days from today on grouped
 * by day then counselor, the filters, and what changed between two snapshots (announced).
 */
import { isRecord } from '../isRecord';
import { refundOfFeed, type RefundView } from '../booking/refund';

/** What staff see of any booking: its service, status, time and counselor. */
export interface BookingSlot {
  serviceId: string;
  status: string;
  /** The clinic day "YYYY-MM-DD" and wall time "HH:MM", in `timezone` (the clinic's). */
  date: string | null;
  time: string | null;
  timezone: string | null;
  counselorId: string | null;
}

export interface BoardBooking extends BookingSlot {
  appointmentId: string;
  /** Epoch ms of the hold's end, for a draft that holds its time. */
  holdExpiresAt: number | null;
  /** The payment's status (`open`, `paid`, ...), null for a service without payment. */
  payment: string | null;
  /** A cancel's refund (the feed row's `refund`), null when none was asked for. */
  refund: RefundView | null;
  updated: string | null;
}

export interface OnlineEntry {
  appointmentId: string;
  step: string | null;
  since: string | null;
  lastSeen: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}/;

/** `{"bookings": [...]}` -> its well-formed rows (others are left out). */
export function parseBookings(data: unknown): BoardBooking[] {
  if (!isRecord(data) || !Array.isArray(data.bookings)) return [];
  const rows: BoardBooking[] = [];
  for (const row of data.bookings as unknown[]) {
    if (!isRecord(row)) continue;
    const appointmentId = text(row.appointmentId);
    const status = text(row.status);
    if (appointmentId === null || status === null) continue;
    const date = text(row.date);
    const time = text(row.time);
    const hold = text(row.holdExpiresAt);
    const holdMs = hold === null ? NaN : Date.parse(hold);
    rows.push({
      appointmentId,
      serviceId: text(row.serviceId) ?? '',
      status,
      date: date !== null && DAY.test(date) ? date : null,
      time: time !== null && TIME.test(time) ? time.slice(0, 5) : null,
      timezone: text(row.timezone),
      counselorId: text(row.counselorId),
      holdExpiresAt: Number.isNaN(holdMs) ? null : holdMs,
      payment: text(row.payment),
      refund: refundOfFeed(row.refund),
      updated: text(row.updated),
    });
  }
  return rows;
}

/** `{"online": [...]}` -> its entries. */
export function parsePresence(data: unknown): OnlineEntry[] {
  if (!isRecord(data) || !Array.isArray(data.online)) return [];
  const entries: OnlineEntry[] = [];
  for (const row of data.online as unknown[]) {
    if (!isRecord(row)) continue;
    const appointmentId = text(row.appointmentId);
    if (appointmentId === null) continue;
    entries.push({ appointmentId, step: text(row.step), since: text(row.since), lastSeen: text(row.lastSeen) });
  }
  return entries;
}

/** A draft holds its time while its hold has not lapsed. */
export function isLiveHold(booking: BoardBooking, now: number): boolean {
  return booking.status === 'draft' && booking.holdExpiresAt !== null && booking.holdExpiresAt > now;
}

/**
 * What the board shows of a booking: a time, and not a draft whose hold lapsed (the slot is
 * back in the calendar).
 */
export function isOnBoard(booking: BoardBooking, now: number): boolean {
  if (booking.date === null || booking.time === null) return false;
  return booking.status !== 'draft' || isLiveHold(booking, now);
}

/** The board's status of a booking: "hold" for a live draft, else its status. */
export function boardStatus(booking: BoardBooking): string {
  return booking.status === 'draft' ? 'hold' : booking.status;
}

export interface BoardFilters {
  /** '' = all. */
  counselorId: string;
  serviceId: string;
  status: string;
}

export const NO_FILTERS: BoardFilters = { counselorId: '', serviceId: '', status: '' };

export function matchesFilters(booking: BoardBooking, filters: BoardFilters): boolean {
  return (
    (filters.counselorId === '' || booking.counselorId === filters.counselorId) &&
    (filters.serviceId === '' || booking.serviceId === filters.serviceId) &&
    (filters.status === '' || boardStatus(booking) === filters.status)
  );
}

export interface CounselorGroup {
  counselorId: string | null;
  bookings: BoardBooking[];
}

export interface DayGroup {
  date: string;
  counselors: CounselorGroup[];
}

/**
 * The bookings of `today` (the clinic's day) and later that pass the filters, by day (earliest
 * first), then counselor (by id; unassigned last), each by time.
 */
export function groupBoard(bookings: BoardBooking[], today: string, filters: BoardFilters, now: number): DayGroup[] {
  const days = new Map<string, Map<string | null, BoardBooking[]>>();
  const shown = bookings
    .filter((b) => isOnBoard(b, now) && (b.date ?? '') >= today && matchesFilters(b, filters))
    .sort((a, b) => `${a.date ?? ''}T${a.time ?? ''}`.localeCompare(`${b.date ?? ''}T${b.time ?? ''}`));
  for (const booking of shown) {
    const date = booking.date ?? '';
    let day = days.get(date);
    if (!day) {
      day = new Map();
      days.set(date, day);
    }
    const list = day.get(booking.counselorId) ?? [];
    list.push(booking);
    day.set(booking.counselorId, list);
  }
  return [...days.entries()].map(([date, counselors]) => ({
    date,
    counselors: [...counselors.entries()]
      .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
      .map(([counselorId, list]) => ({ counselorId, bookings: list })),
  }));
}

/** The values the filters offer, from what the feed holds (sorted). */
export function filterOptions(bookings: BoardBooking[]): { counselorIds: string[]; serviceIds: string[]; statuses: string[] } {
  const counselorIds = new Set<string>();
  const serviceIds = new Set<string>();
  const statuses = new Set<string>();
  for (const b of bookings) {
    if (b.counselorId !== null) counselorIds.add(b.counselorId);
    if (b.serviceId !== '') serviceIds.add(b.serviceId);
    statuses.add(boardStatus(b));
  }
  return { counselorIds: [...counselorIds].sort(), serviceIds: [...serviceIds].sort(), statuses: [...statuses].sort() };
}

export interface BoardChange {
  kind: 'new' | 'cancelled';
  booking: BoardBooking;
}

/**
 * What a new snapshot brought compared with the one before (null: the first snapshot, which
 * announces nothing): a booking that appeared on the board, a booking newly cancelled.
 */
export function boardChanges(previous: BoardBooking[] | null, next: BoardBooking[], now: number): BoardChange[] {
  if (previous === null) return [];
  const before = new Map(previous.map((b) => [b.appointmentId, b]));
  const changes: BoardChange[] = [];
  for (const booking of next) {
    const old = before.get(booking.appointmentId);
    if (booking.status === 'cancelled') {
      if (old !== undefined && old.status !== 'cancelled') changes.push({ kind: 'cancelled', booking });
      continue;
    }
    const wasOn = old !== undefined && isOnBoard(old, now);
    if (!wasOn && isOnBoard(booking, now)) changes.push({ kind: 'new', booking });
  }
  return changes;
}
