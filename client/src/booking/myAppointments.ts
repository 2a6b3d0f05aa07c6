/**
 * The person's appointments as `appointments-mine` gives them (docs/protocol.md "My
 * appointments"), read defensively: an entry without an id or status is left out, every
 * other field falls back to null. Pure, for the My booking screen and its tests.
 */
import { isRecord } from '../isRecord';
import { ENDED_STATUSES } from './ended';

export interface PaymentSummary {
  amount: number;
  currency: string;
  status: string | null;
  refundAmount: number | null;
  receiptUrl: string | null;
}

export interface AppointmentSummary {
  id: string;
  clinicId: string | null;
  serviceId: string | null;
  status: string;
  date: string | null;
  time: string | null;
  timezone: string | null;
  personTimezone: string | null;
  /** ISO-8601 with the clinic's offset. */
  start: string | null;
  end: string | null;
  counselorId: string | null;
  payment: PaymentSummary | null;
  cancellation: { at: string | null; by: string | null } | null;
  /** Only while confirmed. */
  joinUrl: string | null;
  created: string | null;
}

/** Statuses in which the person may still move or cancel the appointment. */
export const CHANGEABLE: ReadonlySet<string> = new Set(['pending_payment', 'confirmed']);
/** Statuses after which a new appointment may be opened (appointment-create). */
export const ENDED: ReadonlySet<string> = ENDED_STATUSES;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Only web addresses open from the page (a stored link is never a script). */
export function webUrl(value: unknown): string | null {
  const url = text(value);
  return url?.startsWith('https://') ? url : null;
}

function payment(value: unknown): PaymentSummary | null {
  if (!isRecord(value)) return null;
  const amount = count(value.amount);
  const currency = text(value.currency);
  if (amount === null || currency === null) return null;
  return {
    amount,
    currency: currency.toUpperCase(),
    status: text(value.status),
    refundAmount: count(value.refundAmount),
    receiptUrl: webUrl(value.receiptUrl),
  };
}

function summary(value: unknown): AppointmentSummary | null {
  if (!isRecord(value)) return null;
  const id = text(value.id);
  const status = text(value.status);
  if (id === null || status === null) return null;
  const cancellation = isRecord(value.cancellation) ? { at: text(value.cancellation.at), by: text(value.cancellation.by) } : null;
  return {
    id,
    clinicId: text(value.clinicId),
    serviceId: text(value.serviceId),
    status,
    date: text(value.date),
    time: text(value.time),
    timezone: text(value.timezone),
    personTimezone: text(value.personTimezone),
    start: text(value.start),
    end: text(value.end),
    counselorId: text(value.counselorId),
    payment: payment(value.payment),
    cancellation,
    joinUrl: status === 'confirmed' ? webUrl(value.joinUrl) : null,
    created: text(value.created),
  };
}

/** The reply of `appointments-mine` (`{appointments: [...]}`), newest first as given. */
export function parseMine(reply: unknown): AppointmentSummary[] {
  if (!isRecord(reply) || !Array.isArray(reply.appointments)) return [];
  return reply.appointments.map(summary).filter((entry): entry is AppointmentSummary => entry !== null);
}

/**
 * The appointment My booking shows: the one named in the address, else the user's current
 * one, else the newest; null when the list has none of these.
 */
export function shownAppointment(list: readonly AppointmentSummary[], requested: string | null, current: string | null): AppointmentSummary | null {
  if (requested !== null) return list.find((entry) => entry.id === requested) ?? null;
  return list.find((entry) => entry.id === current) ?? list[0] ?? null;
}

/**
 * The wall time of an instant in a zone, or null: the clinic's 24-hour as on the calendar
 * ("10:00"), the person's by their language's clock ("5:00 PM"), as booking/format.ts `whenOf`.
 */
export function clockIn(iso: string | null, timeZone: string, locale: string, clock: 'clinic' | 'person' = 'clinic'): string | null {
  if (iso === null) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const options: Intl.DateTimeFormatOptions =
    clock === 'clinic' ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone } : { hour: 'numeric', minute: '2-digit', timeZone };
  try {
    return new Intl.DateTimeFormat(locale, options).format(at);
  } catch {
    return null;
  }
}
