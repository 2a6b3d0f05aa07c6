/**
 * Consent first (before any answer is stored): the consent text of the service's version,
 * and a button that records the person's agreement (`appointment-consent`).
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';
import { definition } from './index';
import { callFunction, errorMessageKey } from '../realtime';
import { ErrorText } from '../components/FieldParts';
import { ClinicDocumentLink, useBookingClinicId } from '../components/ClinicDocumentLink';

export interface ConsentGateProps {
  appointmentId: string;
  version: string | null;
  locale: Locale;
  onGiven: (version: string) => void;
}

export function ConsentGate({ appointmentId, version, locale, onGiven }: ConsentGateProps) {
  const { t } = useTranslation(['intake', 'errors']);
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const clinicId = useBookingClinicId();
  const text = version === null ? undefined : definition.consent[version];
  if (version === null || text === undefined) {
    return (
      <p role="alert" className="notice">
        {t('intake:consent.unavailable')}
      </p>
    );
  }
  return (
    <section className="card consent" aria-labelledby={headingId}>
      <h2 id={headingId}>{text.title[locale]}</h2>
      <p>{text.purpose[locale]}</p>
      <ClinicDocumentLink clinicId={clinicId} document="consent-form" />
      <p className="hint">{t('intake:consent.version', { version })}</p>
      {error !== null && <ErrorText>{error}</ErrorText>}
      <button
        type="button"
        className="primary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          callFunction('appointment-consent', { appointmentId, version }).then(
            () => {
              onGiven(version);
            },
            (failure: unknown) => {
              setBusy(false);
              setError(t(errorMessageKey(failure)));
            },
          );
        }}
      >
        {text.agree[locale]}
      </button>
    </section>
  );
}
