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

/** /terms: the terms of service, in the interface language. */
export default function Terms() {
  const { t } = useTranslation(['screens', 'routes']);
  return (
    <PolicyDocument
      title={t('routes:terms.title')}
      lead={t('routes:terms.description')}
      updated={t('screens:terms.updated')}
      sections={SECTIONS.map((id) => ({
        id: `terms-${id}`,
        heading: t(`screens:terms.${id}.heading`),
        body: t(`screens:terms.${id}.body`),
        extra:
          id === 'contact' ? (
            <p>
              <Link to="/contact">{t('screens:policy.contactLink')}</Link>
            </p>
          ) : id === 'information' ? (
            <p>
              <Link to="/privacy">{t('screens:terms.privacyLink')}</Link>
            </p>
          ) : undefined,
      }))}
    />
  );
}
