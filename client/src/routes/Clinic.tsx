import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { RemoteCheck, RemoteVerdict } from '../intake/StepForm';
import { StepScreen } from '../intake/StepScreen';
import { fieldRefusal } from '../intake';
import { isRecord } from '../isRecord';
import { callFunction } from '../realtime';

const CODE_PATH = 'intake.healthCareProvider.code';

/** `providerCode-check` of a code typed in the appointment's clinic: the institution, or the refusal ("Invalid code."). */
async function checkCode(code: string, document: unknown, matched: (name: string) => string): Promise<RemoteVerdict> {
  const clinicId = isRecord(document) && typeof document.clinicId === 'string' ? document.clinicId : null;
  if (clinicId === null) return { note: '' };
  try {
    const reply = await callFunction('providerCode-check', { clinicId, code }, { maxAttempts: 1 });
    return { note: isRecord(reply) && typeof reply.name === 'string' ? matched(reply.name) : '' };
  } catch (error) {
    const refusal = fieldRefusal(error);
    const key = refusal?.codes.code;
    if (key === undefined) throw error;
    return { code: key, ...(refusal?.messages.code === undefined ? {} : { message: refusal.messages.code }) };
  }
}

/**
 * /b/clinic and its alias /b/ (query `id`: the provider code, filled in when none is saved):
 * the "clinic" step of the intake definition, with a link to go on without a code. A code
 * typed is checked with the clinic (`providerCode-check`): the referring institution is named
 * before the person goes on, and a code the clinic does not have is refused at the field.
 */
export default function Clinic() {
  const { t } = useTranslation(['routes', 'intake']);
  const [search] = useSearchParams();
  const code = search.get('id');
  const remoteCheck = useMemo<RemoteCheck>(
    () => ({
      path: CODE_PATH,
      run: (value, document) => checkCode(value, document, (name) => t('intake:clinic.matched', { name })),
    }),
    [t],
  );
  return (
    <StepScreen
      stepId="clinic"
      lead={t('routes:bookingClinic.description')}
      {...(code ? { prefill: { [CODE_PATH]: code } } : {})}
      remoteCheck={remoteCheck}
      after={(next) => (
        <p className="skip-step">
          <Link to={next}>{t('intake:clinic.withoutCode')}</Link>
        </p>
      )}
    />
  );
}
