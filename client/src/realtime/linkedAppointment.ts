/**
 * A booking mail's link session (auth/linkSession.ts) may not follow the appointment document
 * (it holds the answers): the appointment's booking facts from `appointments-mine` (id,
 * clinic, service, status, date, time, zones, counselor, payment, join link) take its place in
 * the store, so the screens that show or move a booking (My booking, reschedule, the cancel
 * dialog) and the clinic and service reads work as for a full session, without the answers.
 */
import type { AppStore } from '../store';
import type { CallFunction } from './callable';
import { isRecord } from '../isRecord';

export interface LinkedAppointmentDeps {
  store: AppStore;
  call: CallFunction;
  warn?: (message: string, error?: unknown) => void;
}

export function bindLinkedAppointment(deps: LinkedAppointmentDeps): () => void {
  const { store, call } = deps;
  let loadedFor: string | null = null;
  let version = 0;

  const load = (appointmentId: string) => {
    call('appointments-mine', {}).then(
      (data) => {
        if (store.getState().session.user?.link?.appointmentId !== appointmentId) return;
        const list: unknown[] = isRecord(data) && Array.isArray(data.appointments) ? data.appointments : [];
        const entry = list.find((item) => isRecord(item) && item.id === appointmentId);
        version += 1;
        store.getState().receiveSnapshot({
          path: `appointments/${appointmentId}`,
          exists: isRecord(entry),
          data: isRecord(entry) ? entry : null,
          version,
        });
      },
      (error: unknown) => {
        deps.warn?.('Could not read the booking of this link', error);
      },
    );
  };

  const sync = () => {
    const appointmentId = store.getState().session.user?.link?.appointmentId ?? null;
    if (appointmentId === loadedFor) return;
    loadedFor = appointmentId;
    if (appointmentId !== null) load(appointmentId);
  };
  const off = store.subscribe(sync);
  sync();
  return off;
}
