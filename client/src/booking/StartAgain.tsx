/**
 * Booking again once the person's latest appointment ended (docs/product.md "Booking again"): "Start from your previous
 * answers?" Yes calls `appointment-create` with `copyFrom` (the answers only: consent, time and payment are asked
 * afresh), no calls it without; then the questionnaire's first step. Nothing is created before the person chooses.
 *
 * - `StartAgainChoice`: the question and its buttons, for any screen that offers to book again ("My booking").
 * - `StartAgainGate`: wraps the booking steps; while the user record names an ended appointment it shows the choice in
 *   their place (a step cannot edit an ended appointment).
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { ErrorText } from '../components/FieldParts';
import { BusyStatus } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAppointment } from '../store/selectors';
import { startAgainInput, startAgainOffer, type StartAgainOffer } from './ended';

/** Where a new appointment starts: the questionnaire's first step. */
export const START_AGAIN_PATH = '/b/clinic';

export function StartAgainChoice({ offer }: { offer: StartAgainOffer }) {
  const { t } = useTranslation(['booking', 'errors']);
  const navigate = useNavigate();
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = (copy: boolean) => {
    setBusy(true);
    setError(null);
    // Idempotent on the server: a repeat after a lost answer finds the appointment the first call made.
    callFunction('appointment-create', startAgainInput(offer, copy)).then(
      () => {
        // Busy until this screen goes: the record's push moves the app to the new appointment.
        void navigate(START_AGAIN_PATH);
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

export function StartAgainScreen({ offer }: { offer: StartAgainOffer }) {
  const { t } = useTranslation('booking');
  return (
    <Screen title={t('startAgain.title')} lead={t(`startAgain.ended.${offer.status}`)}>
      <StartAgainChoice offer={offer} />
    </Screen>
  );
}

export function StartAgainGate() {
  const appointment = useAppStore(selectAppointment);
  const offer = useMemo(() => startAgainOffer(appointment), [appointment]);
  return offer === null ? <Outlet /> : <StartAgainScreen offer={offer} />;
}
