/**
 * `/staff/appointments/:appointmentId`: one appointment for the clinic's staff (docs/protocol.md
 * "Staff reading and acting"): the booking (appointment/AppointmentDetails), the actions the
 * status allows (appointment/AppointmentActions), the FHIR downloads and printing, the
 * answers step by step in the staff member's language from the questionnaire's definition
 * (the review page's renderer, intake/ReviewAnswers), and the family history as a pedigree
 * (pedigree/). Loaded by the audited `staff-appointment-read`, again after every action.
 * Printing leaves out navigation and actions (appointment/appointment.css).
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { SECOND_FACTOR_PATH } from '../auth/roles';
import { ErrorText } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import { applicableSteps, isCategory, scopeOf } from '../intake';
import { ReviewAnswers } from '../intake/ReviewAnswers';
import { isRecord } from '../isRecord';
import { errorMessageKey, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { AppointmentActions } from './appointment/AppointmentActions';
import { AppointmentDetails } from './appointment/AppointmentDetails';
import { AppointmentExports } from './appointment/AppointmentExports';
import { useStaffAppointment, type StaffAppointment } from './appointment/read';
import { familyAnswersOf, PedigreeChart } from './pedigree/PedigreeChart';
import { pedigreeOf } from './pedigree/layout';
import './staff.css';
import './appointment/appointment.css';

function Answers({ appointment, category }: { appointment: StaffAppointment; category: string | null }) {
  const { t } = useTranslation(['staff', 'intake']);
  const locale = useAppStore(selectLocale);
  const { document } = appointment;
  const steps = applicableSteps(scopeOf(document, category));
  const display = { locale, category, listSeparator: t('intake:listSeparator'), showCodes: true };
  const familyAnswers = useMemo(() => familyAnswersOf(document), [document]);
  const layout = useMemo(() => pedigreeOf(familyAnswers), [familyAnswers]);
  const listed = Array.isArray(familyAnswers.familyMembers) && familyAnswers.familyMembers.length > 0;
  return (
    <>
      <section className="staff-panel staff-pedigree" aria-labelledby="appointment-family">
        <h2 id="appointment-family">{t('staff:appointment.familyTitle')}</h2>
        {!listed && <p>{t('staff:appointment.noFamily')}</p>}
        <PedigreeChart layout={layout} words={display} />
      </section>
      <section className="staff-panel staff-intake" aria-labelledby="appointment-intake">
        <h2 id="appointment-intake">{t('staff:appointment.intakeTitle')}</h2>
        {steps.map((step) => (
          <ReviewAnswers key={step.id} step={step} document={document} display={display} editable={false} level={3} />
        ))}
      </section>
    </>
  );
}

function Refused({ error }: { error: unknown }) {
  const { t } = useTranslation(['staff', 'errors']);
  const secondFactor = error instanceof FunctionsError && error.code === 'unauthenticated' && isRecord(error.details) && error.details.secondFactor !== undefined;
  if (secondFactor) {
    return (
      <>
        <ErrorText>{t('staff:appointment.secondFactorNeeded')}</ErrorText>
        <p>
          <Link to={SECOND_FACTOR_PATH}>{t('staff:board.toSecondFactor')}</Link>
        </p>
      </>
    );
  }
  return (
    <ErrorText>
      {t('staff:appointment.refused')} {t(errorMessageKey(error))}
    </ErrorText>
  );
}

export default function AppointmentScreen() {
  const { t } = useTranslation('staff');
  const locale = useAppStore(selectLocale);
  const { appointmentId = '' } = useParams();
  const { loaded, reload } = useStaffAppointment(appointmentId);
  const category = loaded.state === 'ready' && isCategory(loaded.service?.category) ? loaded.service.category : null;
  return (
    <Screen title={t('appointment.title', { id: appointmentId })} lead={t('appointment.lead')}>
      <p className="no-print staff-appointment-page">
        <Link to="/staff">{t('appointment.back')}</Link>
      </p>
      {loaded.state === 'loading' && (
        <p role="status" className="loading">
          {t('appointment.loading')}
        </p>
      )}
      {loaded.state === 'failed' && <Refused error={loaded.error} />}
      {loaded.state === 'ready' && (
        <div className="staff-appointment">
          <AppointmentDetails appointment={loaded.appointment} clinic={loaded.clinic} service={loaded.service} locale={locale} />
          <AppointmentActions appointment={loaded.appointment} reload={reload} />
          <AppointmentExports appointment={loaded.appointment} locale={locale} />
          <Answers appointment={loaded.appointment} category={category} />
          <p className="print-only staff-print-note">{t('appointment.printedAt')}</p>
        </div>
      )}
    </Screen>
  );
}
