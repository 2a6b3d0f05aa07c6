/**
 * The chosen appointment in words: date and time in the clinic's time zone (named, with the
 * weekday), the person's own time when their zone differs, the counselor, and optionally the
 * language of the e-mails.
 */
import { useTranslation } from 'react-i18next';
import './booking.css';
import { counselorName, whenOf } from './format';
import type { BookedTime } from './hold';
import { isLocale, type Locale } from '../i18n/locale';
import { useAppStore } from '../store';
import { selectClinic } from '../store/selectors';

export interface BookingSummaryProps {
  booked: BookedTime;
  locale: Locale;
  /** The appointment's `locale` (language of the e-mails), when it is to be shown. */
  emailLocale?: unknown;
}

/** Names a counselor in the person's language (one place: see booking/format.ts). */
export function useCounselorName(locale: Locale): (id: string | null) => string {
  const { t } = useTranslation('booking');
  const clinic = useAppStore(selectClinic);
  const data = clinic?.exists ? clinic.data : null;
  return (id) =>
    id === null ? t('counselor.assigned') : counselorName(id, locale, data, (unknownId) => t('counselor.fallback', { id: unknownId }));
}

export function BookingSummary({ booked, locale, emailLocale }: BookingSummaryProps) {
  const { t } = useTranslation(['booking', 'common']);
  const nameOf = useCounselorName(locale);
  const when = whenOf(booked.date, booked.time, booked.timeZone, locale);
  return (
    <dl className="booking-summary">
      <div>
        <dt>{t('booking:summary.when')}</dt>
        <dd>{when.clinic}</dd>
      </div>
      {when.person !== null && (
        <div>
          <dt>{t('booking:summary.yourTime')}</dt>
          <dd>{when.person}</dd>
        </div>
      )}
      <div>
        <dt>{t('booking:summary.counselor')}</dt>
        <dd>{nameOf(booked.counselorId)}</dd>
      </div>
      {emailLocale !== undefined && (
        <div>
          <dt>{t('booking:summary.emailLanguage')}</dt>
          <dd>{isLocale(emailLocale) ? t(`common:language.${emailLocale}`) : t('booking:summary.emailLanguageDefault')}</dd>
        </div>
      )}
    </dl>
  );
}
