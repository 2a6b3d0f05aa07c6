/**
 * "Add to calendar" for a booked appointment: Google Calendar and Outlook on the web open a
 * new event filled in (booking/calendarLinks.ts); "Apple Calendar / .ics" downloads the
 * event the booking mails carry (same UID, so calendars keep one event).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../realtime';
import { ErrorText } from '../components/FieldParts';
import { googleCalendarUrl, outlookCalendarUrl, type CalendarEvent } from './calendarLinks';
import { downloadIcs } from './icsDownload';

export function AddToCalendar({ appointmentId, event }: { appointmentId: string; event: CalendarEvent }) {
  const { t } = useTranslation(['booking', 'errors']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReturnType<typeof errorMessageKey> | null>(null);
  const google = googleCalendarUrl(event);
  const outlook = outlookCalendarUrl(event);

  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadIcs(appointmentId);
    } catch (failure) {
      setError(errorMessageKey(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="my-booking-calendar" aria-labelledby="my-booking-calendar-heading">
      <h3 id="my-booking-calendar-heading">{t('booking:myBooking.addToCalendar')}</h3>
      <ul className="my-booking-calendar-links">
        {google !== null && (
          <li>
            <a href={google} target="_blank" rel="noopener noreferrer">
              {t('booking:myBooking.google')}
            </a>
          </li>
        )}
        {outlook !== null && (
          <li>
            <a href={outlook} target="_blank" rel="noopener noreferrer">
              {t('booking:myBooking.outlook')}
            </a>
          </li>
        )}
        <li>
          <button type="button" className="link-button" disabled={busy} onClick={() => void download()}>
            {t('booking:myBooking.ics')}
          </button>
        </li>
      </ul>
      {error !== null && <ErrorText>{t(error)}</ErrorText>}
    </section>
  );
}
