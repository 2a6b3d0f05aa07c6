import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { StepScreen } from '../intake/StepScreen';

const CODE_PATH = 'intake.healthCareProvider.code';

/**
 * /b/clinic and its alias /b/ (query `id`: the provider code, filled in when none is saved):
 * the "clinic" step of the intake definition, with a link to go on without a code.
 */
export default function Clinic() {
  const { t } = useTranslation(['routes', 'intake']);
  const [search] = useSearchParams();
  const code = search.get('id');
  return (
    <StepScreen
      stepId="clinic"
      lead={t('routes:bookingClinic.description')}
      {...(code ? { prefill: { [CODE_PATH]: code } } : {})}
      after={(next) => (
        <p className="skip-step">
          <Link to={next}>{t('intake:clinic.withoutCode')}</Link>
        </p>
      )}
    />
  );
}
