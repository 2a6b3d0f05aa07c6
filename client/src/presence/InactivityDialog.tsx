import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from './AlertDialog';

export interface InactivityDialogProps {
  secondsLeft: number;
  onContinue: () => void;
}

/** The moments the time left is announced again (every second would drown everything else). */
const ANNOUNCED = [30, 10] as const;

/**
 * The inactivity warning (docs/product.md "Behaviours across screens"): the seconds left before the automatic sign-out and
 * "Continue". Modal, announced as an alert dialog with focus on "Continue"; Escape does
 * nothing (only "Continue" or activity in another tab keeps the session).
 */
export function InactivityDialog({ secondsLeft, onContinue }: InactivityDialogProps) {
  const { t } = useTranslation('screens');
  const continueRef = useRef<HTMLButtonElement>(null);
  const milestone = [...ANNOUNCED].reverse().find((seconds) => secondsLeft <= seconds);
  return (
    <AlertDialog
      title={t('inactivity.title')}
      description={
        <>
          <p>{t('inactivity.body')}</p>
          <p className="countdown" role="timer" aria-live="off">
            {t('inactivity.secondsLeft', { count: secondsLeft })}
          </p>
        </>
      }
      initialFocus={continueRef}
      className="inactivity-dialog"
    >
      <p className="visually-hidden" role="status">
        {milestone === undefined ? '' : t('inactivity.secondsLeft', { count: milestone })}
      </p>
      <div className="actions">
        <button ref={continueRef} type="button" className="primary" onClick={onContinue}>
          {t('inactivity.continue')}
        </button>
      </div>
    </AlertDialog>
  );
}
