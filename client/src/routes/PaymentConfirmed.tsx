/**
 * /b/payment-confirmed?sessionId=... (signed in only): where the payment provider sends the
 * person after paying. A spinner while the outcome is pending, following the appointment live
 * (the webhook confirms it) and asking `stripe-getSessionStatus` once; confirmed -> /b/confirmed;
 * expired, failed, refunded or cancelled -> the payment failure dialog with "Try again" (the
 * checkout, which makes a new session if the old one ended, or the calendar when the hold is
 * gone) and a link to the contact form.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import '../booking/booking.css';
import { PaymentFailedDialog } from '../booking/PaymentFailedDialog';
import { Screen } from '../components/ScreenPlaceholder';
import { useIntake } from '../intake/useIntake';
import { parseSessionStatus, paymentOutcome, retryRoute, type SessionStatusReply } from '../booking/payment';
import { callFunction, FunctionsError } from '../realtime';

/** After this long without an outcome, say that it takes longer than usual. */
export const PAYMENT_SLOW_MS = 60_000;

/** A reply that says this session is not the person's, or does not exist. */
const REFUSED: ReadonlySet<string> = new Set(['not-found', 'permission-denied', 'invalid-argument']);

export default function PaymentConfirmed() {
  const { t } = useTranslation(['routes', 'booking']);
  const [search] = useSearchParams();
  const sessionId = search.get('sessionId');
  const intake = useIntake();
  const navigate = useNavigate();
  const [reply, setReply] = useState<SessionStatusReply | null>(null);
  const [refused, setRefused] = useState(false);
  const [slow, setSlow] = useState(false);

  useEffect(() => {
    if (sessionId === null || sessionId === '') return;
    let current = true;
    callFunction('stripe-getSessionStatus', { sessionId }).then(
      (data) => {
        if (current) setReply(parseSessionStatus(data));
      },
      (error: unknown) => {
        // Anything else: the live appointment still tells the outcome.
        if (current && error instanceof FunctionsError && REFUSED.has(error.code)) setRefused(true);
      },
    );
    return () => {
      current = false;
    };
  }, [sessionId]);

  useEffect(() => {
    const id = window.setTimeout(() => {
      setSlow(true);
    }, PAYMENT_SLOW_MS);
    return () => {
      window.clearTimeout(id);
    };
  }, []);

  const document = intake.status === 'ready' ? intake.document : null;
  const timeZone = intake.status === 'ready' ? intake.timeZone : 'UTC';
  let outcome = intake.status === 'ready' ? paymentOutcome(document, sessionId, reply) : 'pending';
  if (outcome === 'pending' && refused) outcome = 'failed';
  if (outcome === 'confirmed') return <Navigate to="/b/confirmed" replace />;
  const appointmentId = intake.status === 'ready' ? intake.appointmentId : null;

  return (
    <Screen title={t('routes:bookingPaymentConfirmed.title')} lead={t('routes:bookingPaymentConfirmed.description')}>
      {outcome === 'pending' ? (
        <>
          <p role="status" className="loading booking-payment-pending">
            <span className="spinner" aria-hidden="true" /> {t('booking:paymentConfirmed.pending')}
          </p>
          {slow && (
            <p className="hint">
              {t('booking:paymentConfirmed.slow')} <Link to={appointmentId === null ? '/contact' : `/contact?id=${encodeURIComponent(appointmentId)}`}>{t('booking:contactUs')}</Link>
            </p>
          )}
        </>
      ) : (
        <>
          <p className="notice">{t('booking:paymentConfirmed.notConfirmed')}</p>
          <PaymentFailedDialog
            appointmentId={appointmentId}
            onRetry={() => {
              void navigate(retryRoute(document, timeZone, Date.now()));
            }}
          />
        </>
      )}
    </Screen>
  );
}
