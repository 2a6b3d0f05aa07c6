import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { StepProgress } from '../components/StepProgress';
import { useIntake } from '../components/useIntake';
import { APPOINTMENT_ROUTE, REVIEW_ROUTE } from '../intake';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';

/**
 * /b/appointment: date, time, counselor and e-mail language. The calendar comes with a later
 * issue; until then the step after the questionnaire, leading on to the review.
 */
export default function Appointment() {
  const { t } = useTranslation('intake');
  const locale = useAppStore(selectLocale);
  const intake = useIntake();
  return (
    <ScreenPlaceholder screen="bookingAppointment">
      {intake.status === 'ready' && <StepProgress current={APPOINTMENT_ROUTE} scope={intake.scope} locale={locale} />}
      <p>
        <Link to={REVIEW_ROUTE}>{t('appointment.toReview')}</Link>
      </p>
    </ScreenPlaceholder>
  );
}
