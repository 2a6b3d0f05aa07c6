/**
 * "The time you chose has just been taken": announced at once (role=alert) when the chosen
 * slot disappears from the live month document or `appointment-hold` answers ABORTED, with
 * the nearest free times as buttons that choose them. Times are the clinic's, with the
 * person's own beside them when their zone differs (useWhen), as everywhere in booking.
 */
import { useTranslation } from 'react-i18next';
import type { PlacedSlot } from './slots';
import { useWhen } from './useWhen';
import type { Locale } from '../i18n/locale';

export interface TakenNotice {
  /** 'taken': the time is gone; 'counselor': the time is still free, not with that counselor. */
  reason: 'taken' | 'counselor';
  date: string;
  time: string;
  alternatives: PlacedSlot[];
}

interface BookingTakenAlertProps {
  notice: TakenNotice;
  locale: Locale;
  /** The clinic's IANA zone: the times above are its. */
  clinicZone: string;
  onPick: (slot: PlacedSlot) => void;
}

export function BookingTakenAlert({ notice, locale, clinicZone, onPick }: BookingTakenAlertProps) {
  const { t } = useTranslation('booking');
  const whenText = useWhen(locale);
  const when = { when: whenText(notice.date, notice.time, clinicZone) };
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
                    {whenText(slot.date, slot.time, clinicZone)}
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
