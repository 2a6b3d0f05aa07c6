import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/fertility-treatment: fertility treatment history (pgt). Fields, conditions and rules: the "fertility-treatment" step of the intake definition. */
export default function FertilityTreatment() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="fertility-treatment" lead={t('bookingFertilityTreatment.description')} />;
}
