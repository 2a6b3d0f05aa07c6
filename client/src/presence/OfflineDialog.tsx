import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from './AlertDialog';

export interface OfflineDialogProps {
  /** A retry is under way: the button shows a spinner (and stays focusable). */
  retrying: boolean;
  onRetry: () => void;
}

/**
 * "No internet connection" (docs/product.md "Behaviours across screens" and "Messages people see"): modal, not dismissible (no close button,
 * Escape does nothing), announced as an alert dialog with focus on "Retry". It goes away by
 * itself when the connection is back. Saves made meanwhile wait in the realtime outbox.
 */
export function OfflineDialog({ retrying, onRetry }: OfflineDialogProps) {
  const { t } = useTranslation('screens');
  const retryRef = useRef<HTMLButtonElement>(null);
  return (
    <AlertDialog
      title={t('offline.title')}
      description={
        <>
          <p>{t('offline.body')}</p>
          <p>{t('offline.queued')}</p>
        </>
      }
      initialFocus={retryRef}
      className="offline-dialog"
    >
      <div className="actions">
        {/* aria-disabled, not disabled: a disabled button would drop the focus out of the dialog. */}
        <button
          ref={retryRef}
          type="button"
          className="primary"
          aria-disabled={retrying}
          onClick={() => {
            if (!retrying) onRetry();
          }}
        >
          {retrying && <span className="spinner" aria-hidden="true" />}
          {t('offline.retry')}
        </button>
        <span role="status">{retrying ? t('offline.checking') : ''}</span>
      </div>
    </AlertDialog>
  );
}
