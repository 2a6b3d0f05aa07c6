/**
 * A clinic day and time as one sentence for the patient: the clinic's time, and theirs beside
 * it when their zone differs ("Thu, Dec 3, 09:00 Japan Standard Time (your time: Wed, Dec 2,
 * 4:00 PM Pacific Time)"). The words are booking/format.ts's `whenOf`; the joining is the
 * locale's (`booking:when.both`).
 */
import { useTranslation } from 'react-i18next';
import { whenOf } from './format';
import type { Locale } from '../i18n/locale';

export function useWhen(locale: Locale): (date: string, time: string, clinicZone: string) => string {
  const { t } = useTranslation('booking');
  return (date, time, clinicZone) => {
    const when = whenOf(date, time, clinicZone, locale);
    return when.person === null ? when.clinic : t('when.both', { clinic: when.clinic, person: when.person });
  };
}
