/**
 * Starting again after an appointment ended (docs/product.md "Booking again"). The end states are those no move leads
 * out of in contract.json's appointmentTransitions (the server's realtime/booking/status.py ENDED reads the same
 * table). The user record keeps naming the person's latest appointment, open or ended; when it has ended, the person is
 * asked whether to start from its answers (`appointment-create` with `copyFrom`) or from an empty questionnaire.
 */
import { contract } from '../contract';
import type { resources } from '../i18n/resources';
import type { HeldDocument } from '../store/types';

const transitions: Readonly<Record<string, readonly string[]>> = contract.appointmentTransitions;

/** cancelled, completed, no_show, expired. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(Object.keys(transitions).filter((status) => transitions[status]?.length === 0));

/** An end state, as My booking's words name them (booking:myBooking.ended; a test keeps both lists equal). */
export type EndedStatus = keyof (typeof resources)['ja']['booking']['myBooking']['ended'];

export function isEnded(status: unknown): status is EndedStatus {
  return typeof status === 'string' && ENDED_STATUSES.has(status);
}

/** What the person is offered once their appointment ended. */
export interface StartAgainOffer {
  /** The ended appointment (what `copyFrom` names). */
  appointmentId: string;
  status: EndedStatus;
  /** Whether it holds answers worth copying (else only "start a new booking" is offered). */
  hasAnswers: boolean;
}

function hasAnswers(data: Record<string, unknown>): boolean {
  const { intake, patientRole } = data;
  const answered = typeof intake === 'object' && intake !== null && Object.keys(intake).length > 0;
  return answered || (patientRole !== null && patientRole !== undefined);
}

/** The offer for the appointment the user record names: null while it is open, unknown or not loaded. */
export function startAgainOffer(appointment: HeldDocument | null): StartAgainOffer | null {
  const data = appointment?.exists ? appointment.data : null;
  if (data === null || typeof data.id !== 'string' || !isEnded(data.status)) return null;
  return { appointmentId: data.id, status: data.status, hasAnswers: hasAnswers(data) };
}

/** The input of `appointment-create` for the person's choice: a copy of the ended appointment's answers, or none. */
export function startAgainInput(offer: StartAgainOffer, copy: boolean): { copyFrom?: string } {
  return copy && offer.hasAnswers ? { copyFrom: offer.appointmentId } : {};
}
