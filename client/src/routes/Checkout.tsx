/**
 * /b/checkout: the service, its price, the held time (its countdown is the page's HeldTimeBar), and "Pay by
 * card": `stripe-createCheckoutSession` (the same open session while it is open, a new one after
 * it ended; the hold is extended over it) and then the browser goes to the provider's hosted
 * page. The provider sends the person back to /b/payment-confirmed?sessionId=... or, cancelled,
 * to /b/review?payment=cancelled.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { BookingSummary } from '../booking/BookingSummary';
import { Screen } from '../components/ScreenPlaceholder';
import { useIntake } from '../intake/useIntake';
import { WhenIntakeReady } from '../intake/WhenIntakeReady';
import { formatPrice } from '../booking/format';
import { bookedTime } from '../booking/hold';
import { browser } from '../booking/navigation';
import { FAILED_PAYMENT_STATUSES, priceOf } from '../booking/payment';
import { useNow } from '../booking/useNow';
import { isLocale } from '../i18n/locale';
import { callFunction, errorMessageKey, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale, selectService } from '../store/selectors';
import { isRecord } from '../isRecord';
import { BusyStatus } from '../components/Loading';

export default function Checkout() {
  const { t } = useTranslation(['routes', 'booking', 'intake', 'errors']);
  const locale = useAppStore(selectLocale);
  const service = useAppStore(selectService);
  const intake = useIntake();
  const now = useNow(1000);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; holdGone: boolean } | null>(null);
  const title = t('routes:bookingCheckout.title');
  const lead = t('routes:bookingCheckout.description');

  return (
    <WhenIntakeReady intake={intake} title={title} lead={lead}>
      {(intake) => {
        const { document, appointmentId, timeZone } = intake;
        const status = document.status;
        if (status === 'confirmed') return <Navigate to="/b/confirmed" replace />;

        const serviceData = service?.exists ? service.data : null;
        const price = priceOf(serviceData);
        const serviceName = isRecord(serviceData?.name) ? serviceData.name[locale] : undefined;
        const booked = bookedTime(document, timeZone);
        const holdEnds = booked !== null && booked.expiresAt !== null && booked.expiresAt > now ? booked.expiresAt : null;
        const holdLive = holdEnds !== null;
        const payment = isRecord(document.payment) ? document.payment : null;
        const previousFailed = typeof payment?.status === 'string' && FAILED_PAYMENT_STATUSES.has(payment.status);

        const pay = async () => {
          setBusy(true);
          setError(null);
          try {
            const reply = await callFunction<{ url?: unknown }>('stripe-createCheckoutSession', { appointmentId });
            if (typeof reply.url !== 'string' || reply.url === '') throw new FunctionsError('internal', 'Response is missing url field.');
            browser.assign(reply.url);
          } catch (failure) {
            setBusy(false);
            const holdGone = failure instanceof FunctionsError && failure.code === 'aborted';
            setError({ message: holdGone ? t('booking:hold.expired') : t(errorMessageKey(failure)), holdGone });
          }
        };

        return (
          <Screen title={title} lead={lead}>
            {status !== 'pending_payment' ? (
              <div role="status" className="notice">
                <p>
                  {status === 'draft' && holdLive ? t('booking:checkout.notSubmitted') : t('booking:checkout.noHold')}{' '}
                  <Link to={status === 'draft' && holdLive ? '/b/review' : '/b/appointment'}>
                    {status === 'draft' && holdLive ? t('booking:checkout.toReview') : t('booking:hold.chooseAgain')}
                  </Link>
                </p>
              </div>
            ) : (
              <section className="card booking-checkout" aria-labelledby="checkout-heading">
                <h2 id="checkout-heading">{t('booking:checkout.heading')}</h2>
                <dl className="booking-summary">
                  <div>
                    <dt>{t('booking:checkout.service')}</dt>
                    <dd>{typeof serviceName === 'string' ? serviceName : t('booking:checkout.serviceUnnamed')}</dd>
                  </div>
                  <div>
                    <dt>{t('booking:checkout.price')}</dt>
                    <dd className="booking-price">{price ? formatPrice(price, locale) : '—'}</dd>
                  </div>
                </dl>
                {booked && <BookingSummary booked={booked} locale={locale} emailLocale={isLocale(document.locale) ? document.locale : null} />}
                {previousFailed && <p className="hint">{t('booking:checkout.previousFailed')}</p>}
                {error !== null && (
                  <p role="alert" className="error-text">
                    {error.message}{' '}
                    {error.holdGone && <Link to="/b/appointment">{t('booking:hold.chooseAgain')}</Link>}
                  </p>
                )}
                <div className="actions">
                  <button type="button" className="primary" disabled={busy} onClick={() => void pay()}>
                    {t('booking:checkout.pay')}
                  </button>
                  <BusyStatus busy={busy}>{t('booking:checkout.redirecting')}</BusyStatus>
                </div>
                <p className="hint">{t('booking:checkout.secureNote')}</p>
              </section>
            )}
          </Screen>
        );
      }}
    </WhenIntakeReady>
  );
}
