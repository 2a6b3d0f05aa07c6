import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/patient: patient role and patient ID. Fields, conditions and rules: the "patient" step of the intake definition. */
export default function Patient() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="patient" lead={t('bookingPatient.description')} />;
}
