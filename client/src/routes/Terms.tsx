import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EraseAccountSection } from '../account/EraseAccountSection';
import { ClinicDocumentLink, useBookingClinicId } from '../components/ClinicDocumentLink';
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

/**
 * /terms: the terms of service, in the interface language; what it says of information links to
 * the privacy policy (and the consent form of the person's clinic, when known) and, for a signed-in
 * person, offers to withdraw consent and delete their data.
 */
export default function Terms() {
  const { t } = useTranslation('screens');
  const clinicId = useBookingClinicId();
  const information = (
    <>
      <p>
        <Link to="/privacy">{t('terms.privacyLink')}</Link>
      </p>
      <ClinicDocumentLink clinicId={clinicId} document="consent-form" />
      <EraseAccountSection headingLevel={3} />
    </>
  );
  return <PolicyDocument policy="terms" sections={SECTIONS} text={t('terms', { returnObjects: true })} extras={{ information }} />;
}
