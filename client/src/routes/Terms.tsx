import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PolicyDocument } from '../components/PolicyDocument';

const SECTIONS = [
  'service',
  'notMedicalAdvice',
  'signIn',
  'information',
  'booking',
  'cancellation',
  'prohibited',
  'availability',
  'liability',
  'changes',
  'law',
  'contact',
] as const;

/** /terms: the terms of service, in the interface language; what it says of information links to the privacy policy. */
export default function Terms() {
  const { t } = useTranslation('screens');
  const privacyLink = (
    <p>
      <Link to="/privacy">{t('terms.privacyLink')}</Link>
    </p>
  );
  return <PolicyDocument policy="terms" sections={SECTIONS} text={t('terms', { returnObjects: true })} extras={{ information: privacyLink }} />;
}
