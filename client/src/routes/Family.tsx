import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/family: family history, with "add family member". Fields, conditions and rules: the "family" step of the intake definition. */
export default function Family() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="family" lead={t('bookingFamily.description')} />;
}
