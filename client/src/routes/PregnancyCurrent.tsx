import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/pregnancy-current: the current pregnancy (prenatal, pgt). Fields, conditions and rules: the "pregnancy-current" step of the intake definition. */
export default function PregnancyCurrent() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="pregnancy-current" lead={t('bookingPregnancyCurrent.description')} />;
}
