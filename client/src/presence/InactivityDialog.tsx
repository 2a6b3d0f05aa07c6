import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from '../components/DialogFrame';
import './presence.css';

export interface InactivityDialogProps {
  secondsLeft: number;
  onContinue: () => void;
}

/** The moments the time left is announced again (every second would drown everything else). */
const ANNOUNCED = [30, 10] as const;

/**
 * The inactivity warning (spec section 2): the seconds left before the automatic sign-out and
 * "Continue". Modal, announced as an alert dialog with focus on "Continue"; Escape does
 * nothing (only "Continue" or activity in another tab keeps the session).
 */
export function InactivityDialog({ secondsLeft, onContinue }: InactivityDialogProps) {
  const { t } = useTranslation('screens');
  const id = useId();
  const continueRef = useRef<HTMLButtonElement>(null);
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;
  const milestone = [...ANNOUNCED].reverse().find((seconds) => secondsLeft <= seconds);
  return (
    <DialogFrame
      role="alertdialog"
      labelledBy={titleId}
      describedBy={descriptionId}
      initialFocus={continueRef}
      className="modal-dialog inactivity-dialog"
      backdropClassName="modal-backdrop"
      holdFocus
    >
      <h2 id={titleId}>{t('inactivity.title')}</h2>
      <div id={descriptionId}>
        <p>{t('inactivity.body')}</p>
        <p className="countdown" role="timer" aria-live="off">
          {t('inactivity.secondsLeft', { count: secondsLeft })}
        </p>
      </div>
      <p className="visually-hidden" role="status">
        {milestone === undefined ? '' : t('inactivity.secondsLeft', { count: milestone })}
      </p>
      <div className="actions">
        <button ref={continueRef} type="button" className="primary" onClick={onContinue}>
          {t('inactivity.continue')}
        </button>
      </div>
    </DialogFrame>
  );
}
