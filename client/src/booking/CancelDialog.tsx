/**
 * The cancel-appointment modal (docs/product.md "Behaviours across screens"): a reason (required), "Cancel the appointment",
 * and a failure state with the message of docs/product.md "Messages people see" "Error while canceling appointment: try again or
 * contact us" and "Try again". On success (`appointment-cancel`) the server ends every session
 * of the person; this signs out here at once and the login screen says the appointment was
 * cancelled. Before the person confirms, it says what the cancel gives back by the service's
 * cancellation policy (`appointment-cancelQuote`, docs/product.md "Cancelling and refunds").
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { auth } from '../auth/session';
import { callFunction, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { BookingDialog } from './BookingDialog';
import { BusyStatus } from '../components/Loading';
import { MAX_REASON_LENGTH, ReasonField, useReasonForm } from './ReasonField';
import type { BookedTime } from './hold';
import { useWhen } from './useWhen';
import type { Locale } from '../i18n/locale';
import { parseCancelQuote, quoteWording, type QuoteWording } from './refund';
import { RefundQuote } from './RefundState';

export interface CancelDialogProps {
  appointmentId: string;
  /** The appointment's time, named in the dialog (the clinic's, and the person's own beside it). */
  booked?: BookedTime | null;
  locale: Locale;
  onClose: () => void;
}

export function CancelDialog({ appointmentId, booked = null, locale, onClose }: CancelDialogProps) {
  const { t } = useTranslation(['booking', 'errors']);
  const whenText = useWhen(locale);
  const navigate = useNavigate();
  const setLoginNotice = useAppStore((state) => state.setLoginNotice);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const refund = useRefundQuote(appointmentId);
  const reason = useReasonForm({
    required: t('booking:cancel.reasonRequired'),
    tooLong: t('booking:cancel.reasonTooLong', { max: MAX_REASON_LENGTH }),
  });

  const onValid = async ({ reason }: { reason: string }) => {
    setBusy(true);
    setFailed(false);
    try {
      // Once: the person decides whether to try again.
      await callFunction('appointment-cancel', { appointmentId, reason: reason.trim() }, { maxAttempts: 1 });
    } catch (error) {
      // A repeat after a lost answer finds the appointment cancelled already: that is success.
      const details: unknown = error instanceof FunctionsError ? error.details : undefined;
      const already =
        error instanceof FunctionsError &&
        error.code === 'aborted' &&
        typeof details === 'object' &&
        details !== null &&
        (details as { status?: unknown }).status === 'cancelled';
      if (!already) {
        setBusy(false);
        setFailed(true);
        return;
      }
    }
    // The server revokes the session (a `session` expired event follows): sign out here first,
    // so the login screen tells why.
    await auth.signOut();
    setLoginNotice('appointmentCancelled');
    void navigate('/', { replace: true });
  };

  return (
    <BookingDialog
      title={t('booking:cancel.title')}
      description={
        <>
          {booked !== null && <p className="booking-cancel-when">{t('booking:cancel.appointment', { when: whenText(booked.date, booked.time, booked.timeZone) })}</p>}
          <p>{t('booking:cancel.description')}</p>
          <RefundQuote wording={refund} locale={locale} />
        </>
      }
      {...(busy ? {} : { onClose })}
    >
      <form
        className="cancel-form"
        noValidate
        onSubmit={(event) => {
          void reason.form.handleSubmit(onValid)(event);
        }}
      >
        <ReasonField label={t('booking:cancel.reason')} reason={reason} />
        {failed && (
          <div role="alert" className="notice">
            <p>{t('errors:cancelError')}</p>
            <p>
              <Link to={`/contact?${new URLSearchParams({ id: appointmentId }).toString()}`}>{t('booking:contactUs')}</Link>
            </p>
          </div>
        )}
        <div className="actions">
          <button type="submit" className="primary danger" disabled={busy}>
            {failed ? t('booking:cancel.retry') : t('booking:cancel.confirm')}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={onClose}>
            {t('booking:cancel.keep')}
          </button>
          <BusyStatus busy={busy}>{t('booking:cancel.cancelling')}</BusyStatus>
        </div>
      </form>
    </BookingDialog>
  );
}

/**
 * What a cancel now would give back (`appointment-cancelQuote`), asked once when the dialog
 * opens; null until it answers, when it fails (the cancel still works) or for a free service.
 */
function useRefundQuote(appointmentId: string): QuoteWording {
  const [wording, setWording] = useState<QuoteWording>(null);
  useEffect(() => {
    let live = true;
    callFunction('appointment-cancelQuote', { appointmentId }).then(
      (reply) => {
        if (live) setWording(quoteWording(parseCancelQuote(reply)));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [appointmentId]);
  return wording;
}
