import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/expectations: requests and expectations. Fields, conditions and rules: the "expectations" step of the intake definition. */
export default function Expectations() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="expectations" lead={t('bookingExpectations.description')} />;
}
