/**
 * The cancel-appointment modal (docs/product.md "Behaviours across screens"): a reason (required), "Cancel the appointment",
 * and a failure state with the message of docs/product.md "Messages people see" "Error while canceling appointment: try again or
 * contact us" and "Try again". On success (`appointment-cancel`) the server ends every session
 * of the person; this signs out here at once and the login screen says the appointment was
 * cancelled.
 */
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { auth } from '../auth/session';
import { callFunction, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { BookingDialog } from './BookingDialog';
import { BusyStatus } from '../components/Loading';

/** The server keeps at most this much of a reason. */
export const MAX_REASON_LENGTH = 1000;

export function CancelDialog({ appointmentId, onClose }: { appointmentId: string; onClose: () => void }) {
  const { t } = useTranslation(['booking', 'errors']);
  const navigate = useNavigate();
  const setLoginNotice = useAppStore((state) => state.setLoginNotice);
  const reasonId = useId();
  const errorId = `${reasonId}-error`;
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const { register, handleSubmit, formState } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const reasonError = formState.errors.reason
    ? formState.errors.reason.type === 'maxLength'
      ? t('booking:cancel.reasonTooLong', { max: MAX_REASON_LENGTH })
      : t('booking:cancel.reasonRequired')
    : null;

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
      description={<p>{t('booking:cancel.description')}</p>}
      {...(busy ? {} : { onClose })}
    >
      <form
        className="cancel-form"
        noValidate
        onSubmit={(event) => {
          void handleSubmit(onValid)(event);
        }}
      >
        <div className="field" data-invalid={reasonError !== null || undefined}>
          <div className="label-row">
            <label htmlFor={reasonId}>{t('booking:cancel.reason')}</label>
            <span className="required-mark" aria-hidden="true">
              *
            </span>
          </div>
          <textarea
            id={reasonId}
            rows={4}
            aria-required="true"
            aria-invalid={reasonError !== null}
            aria-describedby={reasonError === null ? undefined : errorId}
            {...register('reason', {
              validate: (value) => value.trim() !== '',
              maxLength: MAX_REASON_LENGTH,
            })}
          />
          {reasonError !== null && (
            <p id={errorId} role="alert" className="error-text">
              {reasonError}
            </p>
          )}
        </div>
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
