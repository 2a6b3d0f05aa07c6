/**
 * "Payment failed or was canceled: appointment not confirmed; retry or contact us" (spec
 * section 8) as a modal alert dialog, with "Try again", a link to the contact form, and
 * (where the page makes sense without it) "Close".
 */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BookingDialog } from './BookingDialog';

export interface PaymentFailedDialogProps {
  appointmentId: string | null;
  onRetry: () => void;
  onClose?: () => void;
}

export function PaymentFailedDialog({ appointmentId, onRetry, onClose }: PaymentFailedDialogProps) {
  const { t } = useTranslation(['booking', 'errors']);
  const retryRef = useRef<HTMLButtonElement>(null);
  const contact = appointmentId === null ? '/contact' : `/contact?${new URLSearchParams({ id: appointmentId }).toString()}`;
  return (
    <BookingDialog
      role="alertdialog"
      title={t('booking:payment.failedTitle')}
      description={<p>{t('errors:paymentFailed')}</p>}
      initialFocus={retryRef}
      {...(onClose === undefined ? {} : { onClose })}
    >
      <div className="actions">
        <button ref={retryRef} type="button" className="primary" onClick={onRetry}>
          {t('booking:payment.retry')}
        </button>
        <Link to={contact}>{t('booking:contactUs')}</Link>
        {onClose !== undefined && (
          <button type="button" className="link-button" onClick={onClose}>
            {t('booking:payment.close')}
          </button>
        )}
      </div>
    </BookingDialog>
  );
}
