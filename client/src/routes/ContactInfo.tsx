import { useTranslation } from 'react-i18next';
import { StepScreen } from '../intake/StepScreen';

/** /b/contact: contact information. Fields, conditions and rules: the "contact" step of the intake definition. */
export default function ContactInfo() {
  const { t } = useTranslation('routes');
  return <StepScreen stepId="contact" lead={t('bookingContact.description')} />;
}
