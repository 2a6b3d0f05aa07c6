import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/pregnancy-history: past pregnancies (prenatal, pgt). Fields, conditions and rules: the "pregnancy-history" step of the intake definition. */
export default function PregnancyHistory() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="pregnancy-history" lead={t('bookingPregnancyHistory.description')} />;
}
