/**
 * What every questionnaire screen needs from the store: the appointment (live), its service
 * category and consent version, the clinic's time zone and today's date there.
 */
import { useMemo } from 'react';
import { isRecord } from '../isRecord';
import { isCategory, isTimeZone, scopeOf, todayIn, type Category, type Scope } from './index';
import { useAppStore } from '../store';
import { selectAppointment, selectClinic, selectService } from '../store/selectors';

export type IntakeState =
  | { status: 'loading' }
  | { status: 'unavailable' }
  | {
      status: 'ready';
      appointmentId: string;
      /** `appointments/{id}`: where saves go. */
      appointmentPath: string;
      /** The appointment document's data (answers under `intake`, plus patientRole, consent, ...). */
      document: Record<string, unknown>;
      /** Its snapshot version. */
      version: number;
      category: Category;
      /** The consent text version the service asks for (service-read `consentVersion`). */
      consentVersion: string | null;
      /** The version of the consent recorded on the appointment, if any. */
      consentGiven: string | null;
      timeZone: string;
      /** Today in the clinic's time zone, YYYY-MM-DD. */
      today: string;
      /** The appointment's answers with its category, for conditions. */
      scope: Scope;
    };

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function useIntake(): IntakeState {
  const appointment = useAppStore(selectAppointment);
  const service = useAppStore(selectService);
  const clinic = useAppStore(selectClinic);
  const clinicZone = clinic?.exists ? clinic.data?.timezone : undefined;
  const appointmentZone = appointment?.exists ? appointment.data?.timezone : undefined;
  const timeZone = isTimeZone(clinicZone) ? clinicZone : isTimeZone(appointmentZone) ? appointmentZone : browserTimeZone();
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  return useMemo((): IntakeState => {
    if (!appointment?.exists || !appointment.data || service === null || clinic === null) return { status: 'loading' };
    if (!service.exists) return { status: 'unavailable' };
    const document = appointment.data;
    const id = appointment.path.split('/')[1] ?? '';
    const category = isCategory(service.data?.category) ? service.data.category : null;
    const consentVersion = typeof service.data?.consentVersion === 'string' ? service.data.consentVersion : null;
    const consent = document.consent;
    const consentGiven = isRecord(consent) && typeof consent.version === 'string' ? consent.version : null;
    return {
      status: 'ready',
      appointmentId: id,
      appointmentPath: appointment.path,
      document,
      version: appointment.version,
      category,
      consentVersion,
      consentGiven,
      timeZone,
      today,
      scope: scopeOf(document, category),
    };
  }, [appointment, service, clinic, timeZone, today]);
}
