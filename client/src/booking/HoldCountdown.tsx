/**
 * The countdown of the held time, as words: "Your time is held for 24:12" (while booking) or
 * "Time left to pay 35:34" (a submitted booking waiting for its card payment). The number is a
 * `timer`, not read out every second; a polite status says it once at five minutes left, once
 * at one minute, and once at the end (docs/product.md "The hold countdown").
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import './booking.css';
import { formatMmSs, holdMoment } from './hold';
import { APPOINTMENT_ROUTE } from '../intake';

export type HoldCountdownKind = 'held' | 'payment';

export function HoldCountdown({ secondsLeft, kind }: { secondsLeft: number; kind: HoldCountdownKind }) {
  const { t } = useTranslation('booking');
  const labelId = useId();
  const moment = holdMoment(secondsLeft);
  const minutes = Math.floor(secondsLeft / 60);
  const seconds = secondsLeft % 60;
  return (
    <div className="hold-countdown" data-warning={moment === 'oneMinute' || moment === 'expired' || undefined}>
      {moment === 'expired' ? (
        <p>
          {t('hold.expired')} <Link to={APPOINTMENT_ROUTE}>{t('hold.chooseAgain')}</Link>
        </p>
      ) : (
        <p>
          <span id={labelId}>{t(kind === 'payment' ? 'hold.paymentLabel' : 'hold.heldLabel')}</span>{' '}
          <span role="timer" aria-live="off" aria-labelledby={labelId} className="hold-countdown-time">
            {t('hold.remaining', { minutes, seconds, mmss: formatMmSs(secondsLeft) })}
          </span>
        </p>
      )}
      <p role="status" className="visually-hidden">
        {moment === null ? '' : moment === 'expired' ? t('hold.expired') : t(`hold.moment.${moment}`)}
      </p>
    </div>
  );
}
