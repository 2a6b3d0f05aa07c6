/**
 * /b/confirmed: the booking (date and time in the clinic's time zone and the person's own, counselor, e-mail
 * language), the link to join the video session, a return-home countdown, and "Cancel
 * appointment" (the cancel modal). An appointment that is not confirmed says where to go.
 */
import { JoinLink } from '../booking/JoinLink';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BookingSummary } from '../booking/BookingSummary';
import { CancelDialog } from '../booking/CancelDialog';
import { ReturnHomeCountdown } from '../components/ReturnHomeCountdown';
import { Screen } from '../components/ScreenPlaceholder';
import { useIntake } from '../intake/useIntake';
import { WhenIntakeReady } from '../intake/WhenIntakeReady';
import { bookedTime } from '../booking/hold';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';

/** Seconds before the confirmed page returns to the start page (not after the cancel dialog was opened). */
export const RETURN_HOME_SECONDS = 180;

export default function Confirmed() {
  const { t } = useTranslation(['routes', 'booking', 'intake']);
  const locale = useAppStore(selectLocale);
  const intake = useIntake();
  const [cancelling, setCancelling] = useState(false);
  /** Once the person opened the cancel dialog, the page no longer leaves on its own. */
  const [engaged, setEngaged] = useState(false);

  return (
    <WhenIntakeReady intake={intake} title={t('routes:bookingConfirmed.title')}>
      {(intake) => {

        const { document, appointmentId, timeZone } = intake;
        const status = document.status;
        if (status !== 'confirmed') {
          return (
            <Screen title={t('booking:confirmed.notConfirmedTitle')}>
              <p className="notice" role="status">
                {status === 'pending_payment' ? (
                  <>
                    {t('booking:locked.pendingPayment')} <Link to="/b/checkout">{t('booking:locked.toCheckout')}</Link>
                  </>
                ) : status === 'cancelled' ? (
                  t('booking:confirmed.cancelled')
                ) : (
                  <>
                    {t('booking:confirmed.notYet')} <Link to="/b/review">{t('booking:confirmed.toReview')}</Link>
                  </>
                )}
              </p>
            </Screen>
          );
        }

        const booked = bookedTime(document, timeZone);
        const joinUrl = typeof document.joinUrl === 'string' && /^https?:\/\//.test(document.joinUrl) ? document.joinUrl : null;
        return (
          <Screen title={t('routes:bookingConfirmed.title')} lead={t('routes:bookingConfirmed.description')}>
            <section className="card booking-confirmed" aria-labelledby="booking-confirmed-heading">
              <h2 id="booking-confirmed-heading">{t('booking:confirmed.heading')}</h2>
              {booked && <BookingSummary booked={booked} locale={locale} emailLocale={document.locale ?? null} />}
              <JoinLink joinUrl={joinUrl} />
            </section>
            <div className="actions booking-confirmed-actions">
              <button
                type="button"
                className="secondary danger"
                onClick={() => {
                  setCancelling(true);
                  setEngaged(true);
                }}
              >
                {t('booking:cancel.open')}
              </button>
            </div>
            {!engaged && <ReturnHomeCountdown seconds={RETURN_HOME_SECONDS} />}
            {cancelling && (
              <CancelDialog
                appointmentId={appointmentId}
                booked={booked}
                locale={locale}
                onClose={() => {
                  setCancelling(false);
                }}
              />
            )}
          </Screen>
        );
      }}
    </WhenIntakeReady>
  );
}
