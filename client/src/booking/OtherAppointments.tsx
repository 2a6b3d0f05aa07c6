/** My booking's list of the person's other appointments (appointments-mine): date, service, status, each a link to its page. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Locale } from '../i18n/locale';
import { fullDay } from './format';
import { myBookingPath } from './paths';
import type { AppointmentSummary } from './myAppointments';

export function OtherAppointments({
  list,
  locale,
  serviceName,
}: {
  list: readonly AppointmentSummary[];
  locale: Locale;
  serviceName: (serviceId: string | null) => string | null;
}) {
  const { t } = useTranslation('booking');
  if (list.length === 0) return null;
  return (
    <section className="card my-booking-others" aria-labelledby="my-booking-others-heading">
      <h2 id="my-booking-others-heading">{t('myBooking.others')}</h2>
      <ul>
        {list.map((entry) => (
          <li key={entry.id}>
            <Link to={myBookingPath(entry.id)} aria-label={t('myBooking.see')}>
              {entry.date !== null ? `${fullDay(entry.date, locale)}${entry.time !== null ? ` ${entry.time}` : ''}` : '—'}
            </Link>{' '}
            <span>{serviceName(entry.serviceId) ?? t('checkout.serviceUnnamed')}</span>{' '}
            <span className="my-booking-status">{t(`myBooking.statuses.${entry.status}`, { defaultValue: entry.status })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
