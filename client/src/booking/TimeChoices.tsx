/**
 * The times of one chosen day as radio buttons, shared by the booking calendar and the
 * reschedule screen: each named by the clinic's time, the person's own time (when their zone
 * differs) as its description, a spinner while the day loads and a plain line when it has
 * nothing. How a choice is bound (react-hook-form or a controlled value) is the screen's:
 * `inputProps` gives each radio its props.
 */
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';
import { Loading } from '../components/Loading';
import { whenOf } from './format';
import type { PlacedSlot } from './slots';

export type TimeInputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

export interface TimeChoicesProps {
  /** The day's slots (null while they load). */
  slots: PlacedSlot[] | null;
  /** Prefix of each radio's id (unique on the page). */
  idPrefix: string;
  zone: string;
  locale: Locale;
  inputProps: (slot: PlacedSlot) => TimeInputProps;
}

export function TimeChoices({ slots, idPrefix, zone, locale, inputProps }: TimeChoicesProps): ReactNode {
  const { t } = useTranslation('booking');
  if (slots === null) return <Loading />;
  if (slots.length === 0) return <p className="hint">{t('choose.noTimesThatDay')}</p>;
  return (
    <div className="choices booking-time-choices">
      {slots.map((slot) => {
        const id = `${idPrefix}-${String(slot.at)}`;
        // The radio is named by the clinic's time; the person's own is its description
        // (hidden from the name, read as the description).
        const yours = whenOf(slot.date, slot.time, zone, locale).personShort;
        return (
          <label key={slot.at} className="choice" htmlFor={id}>
            <input id={id} type="radio" value={String(slot.at)} aria-describedby={yours === null ? undefined : `${id}-yours`} {...inputProps(slot)} />
            <span>{slot.time}</span>
            {yours !== null && (
              <span id={`${id}-yours`} className="booking-your-time" aria-hidden="true">
                {t('when.yours', { time: yours })}
              </span>
            )}
          </label>
        );
      })}
    </div>
  );
}
