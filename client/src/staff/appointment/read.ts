/**
 * An appointment as staff read it: `staff-appointment-read` (docs/protocol.md "Staff reading
 * and acting"), audited on the server at every call, with the names of its clinic and service
 * (`clinic-read`, `service-read`). Staff never follow `appointments/{id}` as a live document
 * (a followed document would change without an audit entry), so the page loads it again after
 * each action instead.
 */
import { useCallback, useEffect, useState } from 'react';
import { contract } from '../../contract';
import { isRecord } from '../../isRecord';
import type { BookingSlot } from '../board';
import { callFunction } from '../../realtime';

export interface Contact {
  email: string | null;
  intakeEmail: string | null;
  name: string | null;
  phone: string | null;
}

export interface StaffAppointment extends BookingSlot {
  id: string;
  clinicId: string;
  paymentStatus: string | null;
  cancellation: { reason: string | null; at: string | null; by: string | null } | null;
  /** The whole document, for the answers (`intake`, `patientRole`). */
  document: Record<string, unknown>;
  contact: Contact;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `staff-appointment-read`'s reply, or null when it is not one. */
export function parseStaffAppointment(data: unknown): StaffAppointment | null {
  if (!isRecord(data) || !isRecord(data.appointment)) return null;
  const document = data.appointment;
  const id = text(document.id);
  const clinicId = text(document.clinicId);
  const serviceId = text(document.serviceId);
  const status = text(document.status);
  if (id === null || clinicId === null || serviceId === null || status === null) return null;
  const contact = isRecord(data.contact) ? data.contact : {};
  const payment = isRecord(document.payment) ? document.payment : null;
  const cancellation = isRecord(document.cancellation) ? document.cancellation : null;
  return {
    id,
    clinicId,
    serviceId,
    status,
    date: text(document.date),
    time: text(document.time),
    timezone: text(document.timezone),
    counselorId: text(document.counselorId),
    paymentStatus: payment === null ? null : text(payment.status),
    cancellation:
      cancellation === null ? null : { reason: text(cancellation.reason), at: text(cancellation.at), by: text(cancellation.by) },
    document,
    contact: {
      email: text(contact.email),
      intakeEmail: text(contact.intakeEmail),
      name: text(contact.name),
      phone: text(contact.phone),
    },
  };
}

const transitions: Readonly<Record<string, readonly string[]>> = contract.appointmentTransitions;

/** Whether the status machine (contract.json `appointmentTransitions`) allows `from` -> `to`. */
export function canMove(from: string, to: string): boolean {
  return transitions[from]?.includes(to) ?? false;
}

export type Loaded =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  | { state: 'ready'; appointment: StaffAppointment; clinic: Record<string, unknown> | null; service: Record<string, unknown> | null };

/** One read of the appointment and (best effort) its clinic and service. */
async function readAppointment(appointmentId: string): Promise<Loaded> {
  try {
    const appointment = parseStaffAppointment(await callFunction('staff-appointment-read', { appointmentId }));
    if (appointment === null) throw new Error('staff-appointment-read: unexpected reply');
    const [clinic, service] = await Promise.all([
      callFunction('clinic-read', { id: appointment.clinicId }).catch(() => null),
      callFunction('service-read', { id: appointment.serviceId, clinicId: appointment.clinicId }).catch(() => null),
    ]);
    return { state: 'ready', appointment, clinic: isRecord(clinic) ? clinic : null, service: isRecord(service) ? service : null };
  } catch (error) {
    return { state: 'failed', error };
  }
}

/** Loads the appointment when the page opens; `reload` reads it again (after an action). */
export function useStaffAppointment(appointmentId: string): { loaded: Loaded; reload: () => Promise<StaffAppointment | null> } {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    void readAppointment(appointmentId).then((next) => {
      if (live) setLoaded(next);
    });
    return () => {
      live = false;
    };
  }, [appointmentId]);
  const reload = useCallback(async () => {
    const next = await readAppointment(appointmentId);
    setLoaded(next);
    return next.state === 'ready' ? next.appointment : null;
  }, [appointmentId]);
  return { loaded, reload };
}
