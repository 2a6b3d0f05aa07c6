import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
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
  const { t } = useTranslation(['screens', 'routes']);
  return (
    <PolicyDocument
      title={t('routes:privacy.title')}
      lead={t('routes:privacy.description')}
      updated={t('screens:privacy.updated')}
      sections={SECTIONS.map((id) => ({
        id: `privacy-${id}`,
        heading: t(`screens:privacy.${id}.heading`),
        body: t(`screens:privacy.${id}.body`),
        extra:
          id === 'contact' ? (
            <p>
              <Link to="/contact">{t('screens:policy.contactLink')}</Link>
            </p>
          ) : undefined,
      }))}
    />
  );
}
