import { useTranslation } from 'react-i18next';
import { PolicyDocument } from '../components/PolicyDocument';

const SECTIONS = [
  'overview',
  'collected',
  'purposes',
  'access',
  'sharing',
  'retention',
  'analytics',
  'security',
  'rights',
  'changes',
  'contact',
] as const;

/** /privacy: the privacy policy, in the interface language. */
export default function Privacy() {
  const { t } = useTranslation('screens');
  return <PolicyDocument policy="privacy" sections={SECTIONS} text={t('privacy', { returnObjects: true })} />;
}
