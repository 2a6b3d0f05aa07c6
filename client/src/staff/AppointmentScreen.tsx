import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Screen } from '../components/ScreenPlaceholder';

/** `/staff/appointments/:appointmentId`: a placeholder saying what the page will hold. */
export default function AppointmentScreen() {
  const { t } = useTranslation('staff');
  const { appointmentId = '' } = useParams();
  return (
    <Screen title={t('appointment.title', { id: appointmentId })} lead={t('appointment.lead')}>
      <p>{t('appointment.willHold')}</p>
      <p>
        <Link to="/staff">{t('appointment.back')}</Link>
      </p>
    </Screen>
  );
}
