import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/profile: dates of birth. Fields, conditions and rules: the "profile" step of the intake definition. */
export default function Profile() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="profile" lead={t('bookingProfile.description')} />;
}
