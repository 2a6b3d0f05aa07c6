import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/prenatal-testing: past, present and planned prenatal tests (prenatal). Fields, conditions and rules: the "prenatal-testing" step of the intake definition. */
export default function PrenatalTesting() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="prenatal-testing" lead={t('bookingPrenatalTesting.description')} />;
}
