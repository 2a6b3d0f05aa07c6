/**
 * /b/reschedule?id=<appointmentId>: move a booked time (docs/product.md "Rescheduling").
 * The current time first; then the same live calendar as /b/appointment (BookingCalendar and
 * the month documents it follows: a time taken by anyone disappears at once), a day, a time,
 * and a confirmation "Move your appointment from A to B?" that calls `appointment-reschedule`.
 * A time taken meanwhile is announced like the booking screen does (BookingTakenAlert, the
 * nearest free times). Inside the service's minimum notice the time can no longer move: the
 * screen says so and offers to cancel instead. Times are the clinic's, with the person's own
 * beside them when their zone differs (useWhen).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import '../booking/booking.css';
import { BookingCalendar } from '../booking/BookingCalendar';
import { TimeChoices } from '../booking/TimeChoices';
import { BookingTakenAlert, type TakenNotice } from '../booking/BookingTakenAlert';
import { clampMonth, gestationWeeksOf, monthKey, monthOf, monthRange, pregnancyWindow } from '../booking/calendar';
import { browserZone, fullDay, timeZoneName } from '../booking/format';
import { bookedTime, type BookedTime } from '../booking/hold';
import { useMonthDocument, vacanciesPath } from '../booking/liveMonths';
import { canMove, MOVABLE_STATUSES, movableUntil, rescheduleRefusal } from '../booking/reschedule';
import { ANY_COUNSELOR, findSlot, slotsByDay, zonedMoment, type PlacedSlot } from '../booking/slots';
import { useNow } from '../booking/useNow';
import { useWhen } from '../booking/useWhen';
import { monthSlots, refusalAlternatives, takenNotice, zoneOf } from '../booking/vacancies';
import { ErrorText } from '../components/FieldParts';
import { BusyStatus } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { getPath } from '../intake';
import { useIntake } from '../intake/useIntake';
import { WhenIntakeReady } from '../intake/WhenIntakeReady';
import { callFunction, errorMessageKey, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale, selectService } from '../store/selectors';

/** The service's minimum notice and horizon when service-read does not give them (the server's defaults). */
const DEFAULT_NOTICE_HOURS = 24;
const DEFAULT_HORIZON_DAYS = 60;

/** My booking (another screen) and its cancel, as the mails link to them (realtime/mail/links.py). */
const myBookingRoute = (id: string) => `/b/booking?id=${encodeURIComponent(id)}`;
const cancelRoute = (id: string) => `/b/booking?id=${encodeURIComponent(id)}&action=cancel`;

export default function Reschedule() {
  const { t } = useTranslation(['routes', 'booking']);
  const intake = useIntake();
  const [search] = useSearchParams();
  const title = t('routes:bookingReschedule.title');
  const lead = t('routes:bookingReschedule.description');
  return (
    <WhenIntakeReady intake={intake} title={title} lead={lead}>
      {(ready) => {
        const wanted = search.get('id');
        const booked = bookedTime(ready.document, ready.timeZone);
        const status = ready.document.status;
        return (
          <Screen title={title} lead={lead}>
            {wanted !== null && wanted !== ready.appointmentId ? (
              <p role="alert" className="notice">
                {t('booking:reschedule.notFound')}
              </p>
            ) : booked === null || typeof status !== 'string' || !MOVABLE_STATUSES.includes(status) ? (
              <p role="status" className="notice">
                {t('booking:reschedule.notBooked')}
              </p>
            ) : (
              <Mover
                appointmentId={ready.appointmentId}
                document={ready.document}
                booked={booked}
                timeZone={ready.timeZone}
                today={ready.today}
              />
            )}
          </Screen>
        );
      }}
    </WhenIntakeReady>
  );
}

interface MoverProps {
  appointmentId: string;
  document: Record<string, unknown>;
  booked: BookedTime;
  timeZone: string;
  today: string;
}

/** How the last move ended: done (with the new time), too late, or a failure to show. */
type Outcome = { kind: 'moved'; date: string; time: string } | { kind: 'tooLate' } | { kind: 'failed'; text: string };

function Mover({ appointmentId, document, booked, timeZone: clinicZone, today }: MoverProps) {
  const { t } = useTranslation(['booking', 'errors']);
  const locale = useAppStore(selectLocale);
  const service = useAppStore(selectService);
  const whenText = useWhen(locale);
  const now = useNow(15_000);
  const serviceData = service?.exists ? (service.data ?? {}) : {};
  const noticeHours = typeof serviceData.minNoticeHours === 'number' ? serviceData.minNoticeHours : DEFAULT_NOTICE_HOURS;
  const horizonDays = typeof serviceData.horizonDays === 'number' ? serviceData.horizonDays : DEFAULT_HORIZON_DAYS;
  const clinicId = typeof document.clinicId === 'string' ? document.clinicId : '';
  const serviceId = typeof serviceData.id === 'string' ? serviceData.id : typeof document.serviceId === 'string' ? document.serviceId : '';
  const range = monthRange(today, horizonDays);
  const weeks = gestationWeeksOf(serviceData);
  const edd = getPath(document, 'intake.currentPregnancy.edd');
  const window = weeks && typeof edd === 'string' ? pregnancyWindow(edd, weeks.min, weeks.max) : null;

  const [month, setMonth] = useState(() => clampMonth(monthOf(booked.date), range));
  const [date, setDate] = useState('');
  const [picked, setChosen] = useState<PlacedSlot | null>(null);
  const [refused, setTaken] = useState<TakenNotice | null>(null);
  const [moving, setMoving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const shownPath = clinicId === '' ? null : vacanciesPath(clinicId, serviceId, monthKey(month));
  const datePath = clinicId === '' || date === '' ? null : vacanciesPath(clinicId, serviceId, monthKey(monthOf(date)));
  const shown = useMonthDocument(shownPath);
  const ofDate = useMonthDocument(datePath);
  const zone = zoneOf(shown.document ?? ofDate.document, clinicZone);
  // The booked time is not in the month documents (it is taken, by this booking): no own hold to put back.
  const shownSlots = monthSlots(shown.document, month, null, zone, window);
  const dateSlots = date === '' ? null : monthSlots(ofDate.document, monthOf(date), null, zone, window);
  const dayTimes = dateSlots === null ? null : dateSlots.filter((slot) => slot.date === date);

  // Live: the chosen time taken by someone else meanwhile is announced at once, with the nearest free times
  // (derived from the month documents on every render: no effect, no second render).
  const lost =
    picked === null || dateSlots === null || moving
      ? null
      : takenNotice(dateSlots, { date: picked.date, at: picked.at, counselorId: ANY_COUNSELOR }, zone);
  const chosen = lost === null ? picked : null;
  const taken = lost ?? refused;

  const from = whenText(booked.date, booked.time, booked.timeZone);
  const until = movableUntil(booked.start, noticeHours);
  if (outcome?.kind === 'moved') {
    return (
      <div role="status" className="notice booking-moved">
        <p>{t('booking:reschedule.moved', { when: whenText(outcome.date, outcome.time, zone) })}</p>
        <p>
          <Link to={myBookingRoute(appointmentId)}>{t('booking:reschedule.toMyBooking')}</Link>
        </p>
      </div>
    );
  }
  if (outcome?.kind === 'tooLate' || !canMove(document.status, booked.start, noticeHours, now)) {
    const limit = zonedMoment(new Date(until).toISOString(), booked.timeZone);
    return (
      <div role="status" className="notice booking-too-late">
        <p>{t('booking:reschedule.current', { when: from })}</p>
        <p>{t('booking:reschedule.tooLate', { until: limit === null ? '' : whenText(limit.date, limit.time, booked.timeZone) })}</p>
        <p>
          <Link to={cancelRoute(appointmentId)}>{t('booking:reschedule.toCancel')}</Link>{' '}
          <Link to={myBookingRoute(appointmentId)}>{t('booking:reschedule.toMyBooking')}</Link>
        </p>
      </div>
    );
  }

  const pick = (slot: PlacedSlot) => {
    setMonth(clampMonth(monthOf(slot.date), range));
    setDate(slot.date);
    setChosen(slot);
    setTaken(null);
    setOutcome(null);
  };

  const move = async (slot: PlacedSlot) => {
    setMoving(true);
    setOutcome(null);
    try {
      await callFunction(
        'appointment-reschedule',
        { appointmentId, start: slot.start, counselorId: ANY_COUNSELOR, personTimezone: browserZone() },
        { maxAttempts: 1 },
      );
      setOutcome({ kind: 'moved', date: slot.date, time: slot.time });
    } catch (error) {
      const refusal = error instanceof FunctionsError ? rescheduleRefusal(error.code, error.details) : null;
      if (refusal?.kind === 'taken') {
        const alternatives = refusalAlternatives({ alternatives: refusal.alternatives }, zone, window) ?? [];
        setTaken({ reason: 'taken', date: slot.date, time: slot.time, alternatives });
        setChosen(null);
      } else if (refusal?.kind === 'tooLate') {
        setOutcome({ kind: 'tooLate' });
      } else if (refusal?.kind === 'status') {
        setOutcome({ kind: 'failed', text: t('booking:reschedule.notBooked') });
      } else {
        setOutcome({ kind: 'failed', text: t(errorMessageKey(error)) });
      }
    } finally {
      setMoving(false);
    }
  };

  const loading = shownSlots === null && shown.error === undefined;
  const zoneName = timeZoneName(zone, locale);
  return (
    <>
      <p className="booking-current" role="status">
        {t('booking:reschedule.current', { when: from })}
      </p>
      <p className="hint booking-zone">{t('booking:choose.timeZoneNote', { zone: zoneName })}</p>
      {taken && <BookingTakenAlert notice={taken} locale={locale} clinicZone={zone} onPick={pick} />}
      <div className="booking-when">
        <section className="booking-step" aria-labelledby="reschedule-date-heading">
          <h2 id="reschedule-date-heading" className="visually-hidden">
            {t('booking:choose.dateHeading')}
          </h2>
          <BookingCalendar
            month={month}
            range={range}
            onMonthChange={setMonth}
            days={{ today, byDay: slotsByDay(shownSlots ?? []), window, loading }}
            selected={date}
            onSelect={(day) => {
              setDate(day);
              setChosen(null);
              setOutcome(null);
            }}
            locale={locale}
          />
          {shown.error !== undefined && <ErrorText>{t(`errors:${shown.error}`)}</ErrorText>}
        </section>
        {date === '' ? (
          <p className="hint booking-times-placeholder">{t('booking:choose.pickDayFirst')}</p>
        ) : (
          <fieldset className="field choice-group booking-times">
            <legend>{t('booking:choose.timeLegend', { date: fullDay(date, locale), zone: zoneName })}</legend>
            <TimeChoices
              slots={dayTimes}
              idPrefix="reschedule-time"
              zone={zone}
              locale={locale}
              inputProps={(slot) => ({
                name: 'reschedule-time',
                checked: chosen?.at === slot.at,
                onChange: () => {
                  if (dayTimes === null) return;
                  const found = findSlot(dayTimes, slot.at);
                  if (found) pick(found);
                },
              })}
            />
          </fieldset>
        )}
      </div>
      {chosen !== null && (
        <section className="notice booking-confirm-move" aria-labelledby="reschedule-confirm">
          <p id="reschedule-confirm">
            {t('booking:reschedule.confirm', { from, to: whenText(chosen.date, chosen.time, zone) })}
          </p>
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={moving}
              onClick={() => {
                void move(chosen);
              }}
            >
              {t('booking:reschedule.move')}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={moving}
              onClick={() => {
                setChosen(null);
              }}
            >
              {t('booking:reschedule.chooseAnother')}
            </button>
            <BusyStatus busy={moving}>{t('booking:reschedule.moving')}</BusyStatus>
          </div>
        </section>
      )}
      {outcome?.kind === 'failed' && (
        <p role="alert" className="error-text">
          {outcome.text}
        </p>
      )}
      <p>
        <Link to={myBookingRoute(appointmentId)}>{t('booking:reschedule.toMyBooking')}</Link>
      </p>
    </>
  );
}
