/**
 * How long the chosen time stays held: "Time left on your hold 09:41" (mm:ss to
 * `holdExpiresAt`). The number is a `timer` (not read out every second); one minute before the
 * end a polite message says so once, and at zero an alert says the hold has expired.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import './booking.css';
import { formatMmSs, secondsLeft } from './hold';

const WARNING_SECONDS = 60;

export function HoldCountdown({ expiresAt, now }: { expiresAt: number; now: number }) {
  const { t } = useTranslation('booking');
  const labelId = useId();
  const left = secondsLeft(expiresAt, now);
  return (
    <div className="hold-countdown" data-warning={left <= WARNING_SECONDS || undefined}>
      <span id={labelId}>{t('hold.countdownLabel')}</span>{' '}
      <span role="timer" aria-live="off" aria-labelledby={labelId} className="hold-countdown-time">
        {formatMmSs(left)}
      </span>
      <p role="status" className="visually-hidden">
        {left > 0 && left <= WARNING_SECONDS ? t('hold.oneMinute') : ''}
      </p>
    </div>
  );
}
