/**
 * "The time you chose has just been taken": announced at once (role=alert) when the chosen
 * slot disappears from the live month document or `appointment-hold` answers ABORTED, with
 * the nearest free times as buttons that choose them.
 */
import { useTranslation } from 'react-i18next';
import { formatDay } from './format';
import type { PlacedSlot } from './slots';
import type { Locale } from '../i18n/locale';

export interface TakenNotice {
  /** 'taken': the time is gone; 'counselor': the time is still free, not with that counselor. */
  reason: 'taken' | 'counselor';
  date: string;
  time: string;
  alternatives: PlacedSlot[];
}

export function BookingTakenAlert({ notice, locale, onPick }: { notice: TakenNotice; locale: Locale; onPick: (slot: PlacedSlot) => void }) {
  const { t } = useTranslation('booking');
  const when = { date: formatDay(notice.date, locale), time: notice.time };
  return (
    <div role="alert" className="notice booking-taken">
      <p>{notice.reason === 'taken' ? t('taken.message', when) : t('taken.counselor', when)}</p>
      {notice.reason === 'taken' &&
        (notice.alternatives.length > 0 ? (
          <>
            <p>{t('taken.alternatives')}</p>
            <ul className="booking-alternatives">
              {notice.alternatives.map((slot) => (
                <li key={slot.start}>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => {
                      onPick(slot);
                    }}
                  >
                    {t('taken.alternative', { date: formatDay(slot.date, locale), time: slot.time })}
                  </button>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>{t('taken.noAlternatives')}</p>
        ))}
    </div>
  );
}
