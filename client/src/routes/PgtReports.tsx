import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/pgt-reports: analysis reports, with "add report" (pgt). Fields, conditions and rules: the "pgt-reports" step of the intake definition. */
export default function PgtReports() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="pgt-reports" lead={t('bookingPgtReports.description')} />;
}
