/**
 * Booking again once the person's latest appointment ended (docs/product.md "Booking again"): "Start from your previous
 * answers?" Yes calls `appointment-create` with `copyFrom` (the answers only: consent, time and payment are asked
 * afresh), no calls it without; then the questionnaire's first step. Nothing is created before the person chooses.
 *
 * `StartAgainChoice` is shown on My booking (routes/MyBooking.tsx) under the ended appointment the user record names;
 * the questionnaire's steps are not reachable for an ended appointment (booking/landing.ts sends the person there).
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../components/FieldParts';
import { BusyStatus } from '../components/Loading';
import { callFunction, errorMessageKey } from '../realtime';
import { startAgainInput, type StartAgainOffer } from './ended';

/** Where a new appointment starts: the questionnaire's first step. */
export const START_AGAIN_PATH = '/b/clinic';

export function StartAgainChoice({ offer }: { offer: StartAgainOffer }) {
  const { t } = useTranslation(['booking', 'errors']);
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = (copy: boolean) => {
    setBusy(true);
    setError(null);
    // Idempotent on the server: a repeat after a lost answer finds the appointment the first call made.
    callFunction('appointment-create', startAgainInput(offer, copy)).then(
      () => {
        // Busy until the user record names the new appointment (its push may come after this
        // reply): My booking then opens its questionnaire (routes/MyBooking.tsx).
      },
      (failure: unknown) => {
        setBusy(false);
        setError(t(errorMessageKey(failure)));
      },
    );
  };

  const copyAnswers = () => {
    start(true);
  };
  const startEmpty = () => {
    start(false);
  };

  return (
    <section className="card start-again" aria-labelledby={headingId}>
      <h2 id={headingId}>{offer.hasAnswers ? t('booking:startAgain.question') : t('booking:startAgain.title')}</h2>
      {offer.hasAnswers && <p className="hint">{t('booking:startAgain.hint')}</p>}
      {error !== null && <ErrorText>{error}</ErrorText>}
      <div className="actions">
        {offer.hasAnswers ? (
          <>
            <button type="button" className="primary" disabled={busy} onClick={copyAnswers}>
              {t('booking:startAgain.copy')}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={startEmpty}>
              {t('booking:startAgain.empty')}
            </button>
          </>
        ) : (
          <button type="button" className="primary" disabled={busy} onClick={startEmpty}>
            {t('booking:startAgain.start')}
          </button>
        )}
        <BusyStatus busy={busy}>{t('booking:startAgain.starting')}</BusyStatus>
      </div>
    </section>
  );
}
