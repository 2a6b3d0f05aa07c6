/**
 * /b/appointment: the session's length and price, then a counselor (any, or a particular one:
 * the calendar then shows only their free times), a date in the calendar, a time, and the
 * language of the e-mails; "Hold this time" holds it (`appointment-hold`) and goes on to the
 * review. Days and times are the clinic's, whatever the browser's zone, and the screen says
 * which zone that is; each time shows the person's own beside it when their zone differs.
 *
 * The calendar is live: it follows the month document shown (and the chosen date's), so a
 * time taken by anyone disappears at once; if it was the person's choice, an alert says so
 * and offers the nearest free times. For prenatal services, only days inside the pregnancy
 * window (service `gestationWeeks`, intake `currentPregnancy.edd`) can be chosen.
 *
 * When no time suits, the person may join the waitlist below the hold button (booking/WaitlistPanel);
 * a freed time held for them arrives live and is announced at the top, with the way on to the
 * review.
 */
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import '../booking/booking.css';
import { BookingCalendar } from '../booking/BookingCalendar';
import { TimeChoices } from '../booking/TimeChoices';
import { BookingTakenAlert, type TakenNotice } from '../booking/BookingTakenAlert';
import { useCounselorName } from '../booking/BookingSummary';
import { BusyStatus } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { StepProgress } from '../intake/StepProgress';
import { useIntake } from '../intake/useIntake';
import { WhenIntakeReady } from '../intake/WhenIntakeReady';
import {
  clampMonth,
  gestationWeeksOf,
  monthKey,
  monthOf,
  monthRange,
  pregnancyWindow,
  readRange,
} from '../booking/calendar';
import { browserZone, formatPrice, fullDay, genericZoneName, timeZoneName, zonesDiffer } from '../booking/format';
import { priceOf } from '../booking/payment';
import { useWhen } from '../booking/useWhen';
import { holdRefusal, liveHold, type HoldRefusal } from '../booking/hold';
import { holdTimeNow } from '../booking/holdClock';
import { liveMonths, useMonthDocument, vacanciesPath, type LiveMonthsState } from '../booking/liveMonths';
import { ANY_COUNSELOR, findSlot, instantOf, slotsByDay, zonedMoment, type PlacedSlot } from '../booking/slots';
import { counselorsOf, firstFreeDay, forCounselor, monthSlots, refusalAlternatives, takenNotice, zoneOf } from '../booking/vacancies';
import { useNow } from '../booking/useNow';
import { liveOffer, waitlistOf } from '../booking/waitlist';
import { WaitlistOfferNotice, WaitlistPanel } from '../booking/WaitlistPanel';
import { addDays } from '../intake/dates';
import { formatDate } from '../i18n/format';
import { isLocale, locales, type Locale } from '../i18n/locale';
import { applicableSteps, APPOINTMENT_ROUTE, getPath, REVIEW_ROUTE } from '../intake';
import { callFunction, errorMessageKey, FunctionsError, outbox } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale, selectService } from '../store/selectors';
import { ErrorText } from '../components/FieldParts';

/** The service's booking horizon when service-read does not give one (the server's default). */
const DEFAULT_HORIZON_DAYS = 60;

interface ChoiceValues {
  date: string;
  /** The chosen slot's instant (ms) as text: slots compare by instant, never by their text. */
  time: string;
  counselorId: string;
  emailLocale: Locale;
}

type FirstRead = { status: 'loading' } | { status: 'done'; firstDay: string | null; counselors: string[] } | { status: 'failed' };

export default function Appointment() {
  const { t } = useTranslation(['routes', 'intake', 'booking']);
  const intake = useIntake();
  const title = t('routes:bookingAppointment.title');
  const lead = t('routes:bookingAppointment.description');
  return (
    <WhenIntakeReady intake={intake} title={title} lead={lead}>
      {(intake) => {
        const status = intake.document.status;
        return (
          <Screen title={title} lead={lead}>
            {status === 'draft' ? (
              <Picker
                appointmentId={intake.appointmentId}
                appointmentPath={intake.appointmentPath}
                document={intake.document}
                scope={intake.scope}
                timeZone={intake.timeZone}
                today={intake.today}
              />
            ) : (
              <NotChangeable status={status} />
            )}
          </Screen>
        );
      }}
    </WhenIntakeReady>
  );
}

/** A submitted appointment's time cannot change here: where to go instead. */
function NotChangeable({ status }: { status: unknown }) {
  const { t } = useTranslation('booking');
  return (
    <div className="notice" role="status">
      {status === 'pending_payment' ? (
        <p>
          {t('locked.pendingPayment')} <Link to="/b/checkout">{t('locked.toCheckout')}</Link>
        </p>
      ) : status === 'confirmed' ? (
        <p>
          {t('locked.confirmed')} <Link to="/b/confirmed">{t('locked.toConfirmed')}</Link>
        </p>
      ) : (
        <p>{t('locked.other')}</p>
      )}
    </div>
  );
}

interface PickerProps {
  appointmentId: string;
  appointmentPath: string;
  document: Record<string, unknown>;
  scope: Parameters<typeof StepProgress>[0]['scope'];
  timeZone: string;
  today: string;
}

/** Why the last "Hold this time" failed; with a way to the consent when that is missing. */
interface HoldError {
  text: string;
  toConsent?: boolean;
}

function Picker({ appointmentId, appointmentPath, document, scope, timeZone: clinicZone, today }: PickerProps) {
  const { t } = useTranslation(['booking', 'common', 'errors', 'intake']);
  const locale = useAppStore(selectLocale);
  const service = useAppStore(selectService);
  const navigate = useNavigate();
  const nameOf = useCounselorName(locale);
  const whenText = useWhen(locale);
  const serviceData = service?.exists ? (service.data ?? {}) : {};
  const clinicId = typeof document.clinicId === 'string' ? document.clinicId : '';
  const serviceId = typeof serviceData.id === 'string' ? serviceData.id : typeof document.serviceId === 'string' ? document.serviceId : '';
  const horizonDays = typeof serviceData.horizonDays === 'number' ? serviceData.horizonDays : DEFAULT_HORIZON_DAYS;
  const range = monthRange(today, horizonDays);
  const weeks = gestationWeeksOf(serviceData);
  const edd = getPath(document, 'intake.currentPregnancy.edd');
  const window = weeks && typeof edd === 'string' ? pregnancyWindow(edd, weeks.min, weeks.max) : null;

  const now = useNow(15_000);
  const held = liveHold(document, clinicZone, now);
  const own = held?.counselorId ? { start: held.start, counselorId: held.counselorId, date: held.date } : null;
  // The waitlist (docs/product.md "Waitlist"): the person's place, and a freed time held for them.
  const waitlist = waitlistOf(document, clinicZone);
  const offer = liveOffer(document, clinicZone, now);

  const [firstRead, setFirstRead] = useState<FirstRead>({ status: 'loading' });
  const [month, setMonth] = useState<string | null>(() => (own ? clampMonth(monthOf(own.date), range) : null));
  const [taken, setTaken] = useState<TakenNotice | null>(null);
  const [holding, setHolding] = useState(false);
  const [holdError, setHoldError] = useState<HoldError | null>(null);
  const holdButton = useRef<HTMLButtonElement>(null);
  const timesRef = useRef<HTMLFieldSetElement>(null);
  const calendarRef = useRef<HTMLDivElement>(null);

  const storedLocale = document.locale;
  const form = useForm<ChoiceValues>({
    defaultValues: {
      date: own?.date ?? '',
      time: own ? String(instantOf(own.start)) : '',
      counselorId: own?.counselorId ?? ANY_COUNSELOR,
      emailLocale: isLocale(storedLocale) ? storedLocale : locale,
    },
    shouldFocusError: false,
  });
  const { register, setValue, getValues, handleSubmit, formState, clearErrors, control } = form;
  const [date, counselorId] = useWatch({ control, name: ['date', 'counselorId'] });

  // The first look-up: which month to open, and whether anything is free at all.
  const { from, to } = readRange(today, horizonDays);
  useEffect(() => {
    if (clinicId === '' || serviceId === '') return;
    let current = true;
    callFunction('vacancies-read', { clinicId, serviceId, from, to }).then(
      (reply) => {
        if (current) setFirstRead({ status: 'done', firstDay: firstFreeDay(reply, clinicZone), counselors: counselorsOf(reply) });
      },
      () => {
        if (current) setFirstRead({ status: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [clinicId, serviceId, from, to, clinicZone]);

  const firstDay = firstRead.status === 'done' ? firstRead.firstDay : null;
  const shownMonth = month ?? (firstRead.status === 'loading' ? null : clampMonth(firstDay ? monthOf(firstDay) : range.first, range));
  const dateMonth = date === '' ? null : monthOf(date);
  const shownPath = shownMonth === null || clinicId === '' ? null : vacanciesPath(clinicId, serviceId, monthKey(shownMonth));
  const datePath = dateMonth === null || clinicId === '' ? null : vacanciesPath(clinicId, serviceId, monthKey(dateMonth));
  const shown = useMonthDocument(shownPath);
  const chosen = useMonthDocument(datePath);

  const timeZone = zoneOf(shown.document ?? chosen.document, clinicZone);
  const shownSlots = monthSlots(shown.document, shownMonth, own, zoneOf(shown.document, clinicZone), window);
  const chosenSlots = monthSlots(chosen.document, dateMonth, own, zoneOf(chosen.document, clinicZone), window);
  // A particular counselor, when wanted, is chosen first: the calendar and the times are theirs.
  const shownFor = shownSlots === null ? null : forCounselor(shownSlots, counselorId);
  const shownByDay = slotsByDay(shownFor ?? []);
  const dayTimes = date === '' || chosenSlots === null ? null : forCounselor(chosenSlots, counselorId).filter((slot) => slot.date === date);
  // Who can be chosen: the counselors with free times in the horizon, and the one of a hold.
  const counselors = [
    ...new Set([...(firstRead.status === 'done' ? firstRead.counselors : []), ...(own ? [own.counselorId] : [])]),
  ];

  // Live: when a push leaves the chosen time (or counselor) no longer free, say so at once and
  // offer the nearest free times. Checked on every change of the month documents.
  const latest = useRef({ own, window, clinicZone, holding, datePath, dateMonth });
  useEffect(() => {
    latest.current = { own, window, clinicZone, holding, datePath, dateMonth };
  });
  useEffect(() => {
    const check = (state: LiveMonthsState) => {
      const current = latest.current;
      const values = getValues();
      if (current.holding || current.datePath === null || values.time === '') return;
      const doc = state.months[current.datePath];
      const zone = zoneOf(doc, current.clinicZone);
      const slots = monthSlots(doc, current.dateMonth, current.own, zone, current.window);
      if (slots === null) return;
      const notice = takenNotice(slots, { date: values.date, at: Number(values.time), counselorId: values.counselorId }, zone);
      if (notice === null) return;
      setTaken(notice);
      // A taken time is no choice any more; a counselor no longer free leaves the time chosen.
      if (notice.reason === 'taken') setValue('time', '');
      setValue('counselorId', ANY_COUNSELOR);
    };
    return liveMonths.store.subscribe(check);
  }, [getValues, setValue]);

  const pickDay = (day: string) => {
    if (day !== date) {
      setValue('date', day);
      setValue('time', '');
    }
    clearErrors('date');
    setHoldError(null);
  };

  const pickAlternative = (slot: PlacedSlot) => {
    setMonth(monthOf(slot.date));
    setValue('date', slot.date);
    setValue('time', String(slot.at));
    setValue('counselorId', ANY_COUNSELOR);
    clearErrors();
    setTaken(null);
    holdButton.current?.focus();
  };

  const onValid = async (values: ChoiceValues) => {
    const slot = chosenSlots === null ? undefined : findSlot(chosenSlots, Number(values.time));
    if (!slot) return; // the live check has said why
    setHoldError(null);
    setTaken(null);
    setHolding(true);
    try {
      if (values.emailLocale !== storedLocale) await outbox.send(appointmentPath, { locale: values.emailLocale });
      // The browser's zone goes with the hold: the person's mails give their own time too.
      await holdTimeNow(appointmentId, slot.start, values.counselorId, browserZone());
      void navigate(REVIEW_ROUTE);
    } catch (error) {
      setHolding(false);
      const details: unknown = error instanceof FunctionsError ? error.details : undefined;
      const refusal = error instanceof FunctionsError ? holdRefusal(error.code, details) : null;
      const alternatives = error instanceof FunctionsError && error.code === 'aborted' ? refusalAlternatives(details, timeZone, window) : null;
      if (alternatives !== null) {
        setTaken({ reason: 'taken', date: slot.date, time: slot.time, alternatives });
        setValue('time', '');
        setValue('counselorId', ANY_COUNSELOR);
      } else if (refusal?.kind === 'limit') {
        setHoldError({ text: limitMessage(refusal) });
      } else if (refusal?.kind === 'consent') {
        setHoldError({ text: t('booking:hold.consentRequired'), toConsent: true });
      } else if (error instanceof FunctionsError && error.code === 'aborted') {
        setHoldError({ text: t('booking:hold.notDraft') });
      } else {
        setHoldError({ text: t(errorMessageKey(error)) });
      }
    }
  };

  /** The booking has held times for as long as it may: say so, and when it may again. */
  const limitMessage = (refusal: Extract<HoldRefusal, { kind: 'limit' }>) => {
    const again = refusal.retryAfter === null ? null : zonedMoment(new Date(refusal.retryAfter).toISOString(), timeZone);
    return again === null ? t('booking:hold.limit') : t('booking:hold.limitRetry', { time: again.time });
  };
  const consentRoute = applicableSteps(scope)[0]?.route;

  const onInvalid = () => {
    if (formState.errors.date || date === '') {
      calendarRef.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
    } else {
      timesRef.current?.querySelector<HTMLInputElement>('input')?.focus();
    }
  };

  const loadingMonth = shownMonth === null || (shownSlots === null && shown.error === undefined);
  const noneThisMonth = !loadingMonth && shownFor !== null && shownFor.length === 0;
  const noneAtAll = firstRead.status === 'done' && firstDay === null;
  const zoneName = timeZoneName(timeZone, locale);
  // The person's own zone, named once above the calendar when it reads the clinic's clock differently.
  const ownZone = zonesDiffer(timeZone) ? genericZoneName(browserZone(), locale) : null;
  const price = priceOf(serviceData);
  const minutes = typeof serviceData.sessionMinutes === 'number' ? serviceData.sessionMinutes : null;
  const dateError = formState.errors.date ? t('booking:choose.dateRequired') : null;
  const timeError = formState.errors.time ? t('booking:choose.timeRequired') : null;

  return (
    <>
      <StepProgress current={APPOINTMENT_ROUTE} scope={scope} locale={locale} />
      {offer !== null ? (
        <WaitlistOfferNotice offer={offer} clinicZone={clinicZone} locale={locale} />
      ) : held && (
        <p className="booking-held" role="status">
          {t('booking:choose.currentHold', { when: whenText(held.date, held.time, held.timeZone) })}{' '}
          <Link to={REVIEW_ROUTE}>{t('booking:choose.toReview')}</Link>
        </p>
      )}
      {minutes !== null && (
        <p className="booking-offer">
          {price === null
            ? t('booking:choose.offerLength', { minutes })
            : t('booking:choose.offer', { minutes, price: formatPrice(price, locale) })}
        </p>
      )}
      <p className="hint booking-zone">
        {t('booking:choose.timeZoneNote', { zone: zoneName })}
        {ownZone !== null && <> {t('booking:choose.yourZoneNote', { zone: ownZone })}</>}
      </p>
      {window && (
        <p className="hint booking-window">
          {t('booking:choose.windowNote', {
            first: formatDate(window.first, locale),
            last: formatDate(window.last, locale),
            min: window.minWeeks,
            max: window.maxWeeks,
          })}
        </p>
      )}
      {taken && <BookingTakenAlert notice={taken} locale={locale} clinicZone={timeZone} onPick={pickAlternative} />}
      <form
        className="booking-form"
        noValidate
        onSubmit={(event) => {
          void handleSubmit(onValid, onInvalid)(event);
        }}
      >
        <input type="hidden" {...register('date', { required: true })} />
        {counselors.length > 1 && (
          <fieldset className="field choice-group booking-counselors" aria-describedby="booking-counselor-hint">
            <legend>{t('booking:choose.counselorLegend')}</legend>
            <div className="choices">
              {[ANY_COUNSELOR, ...counselors].map((id) => {
                const inputId = `booking-counselor-${id}`;
                return (
                  <label key={id} className="choice" htmlFor={inputId}>
                    <input
                      id={inputId}
                      type="radio"
                      value={id}
                      {...register('counselorId', {
                        onChange: () => {
                          // A time the new choice cannot give is no choice any more.
                          const values = getValues();
                          const slot = chosenSlots === null ? undefined : findSlot(chosenSlots, Number(values.time));
                          if (slot && id !== ANY_COUNSELOR && !slot.counselorIds.includes(id)) setValue('time', '');
                          setTaken(null);
                          setHoldError(null);
                        },
                      })}
                    />
                    <span>{id === ANY_COUNSELOR ? t('booking:counselor.any') : nameOf(id)}</span>
                  </label>
                );
              })}
            </div>
            <p id="booking-counselor-hint" className="hint">
              {t('booking:choose.counselorHint')}
            </p>
          </fieldset>
        )}

        {/* The calendar and the day's times: side by side where the screen is wide. */}
        <div className="booking-when">
          <section className="booking-step" aria-labelledby="booking-date-heading">
            <h2 id="booking-date-heading" className="visually-hidden">
              {t('booking:choose.dateHeading')}
            </h2>
            <div ref={calendarRef}>
              <BookingCalendar
                month={shownMonth ?? range.first}
                range={range}
                onMonthChange={(next) => {
                  setMonth(next);
                }}
                days={{ today, byDay: shownByDay, window, loading: loadingMonth }}
                selected={date}
                onSelect={pickDay}
                locale={locale}
              />
            </div>
            {shown.error !== undefined && <ErrorText>{t(`errors:${shown.error}`)}</ErrorText>}
            {noneAtAll ? (
              <p role="status" className="notice booking-none">
                {t('booking:calendar.noneAtAll')} <Link to="/contact">{t('booking:contactUs')}</Link>
              </p>
            ) : (
              noneThisMonth && (
                <p role="status" className="notice booking-none">
                  {t('booking:calendar.noneThisMonth')}
                </p>
              )
            )}
            {firstRead.status === 'failed' && <ErrorText>{t('booking:calendar.readFailed')}</ErrorText>}
            {dateError !== null && <ErrorText>{dateError}</ErrorText>}
          </section>

          {date === '' ? (
            <p className="hint booking-times-placeholder">{t('booking:choose.pickDayFirst')}</p>
          ) : (
            <fieldset ref={timesRef} className="field choice-group booking-times" aria-describedby={timeError ? 'booking-time-error' : undefined}>
              <legend>{t('booking:choose.timeLegend', { date: fullDay(date, locale), zone: zoneName })}</legend>
              <TimeChoices
                slots={dayTimes}
                idPrefix="booking-time"
                zone={timeZone}
                locale={locale}
                inputProps={() =>
                  register('time', {
                    required: true,
                    onChange: () => {
                      setTaken(null);
                      setHoldError(null);
                    },
                  })
                }
              />
              {timeError !== null && (
                <p id="booking-time-error" role="alert" className="error-text">
                  {timeError}
                </p>
              )}
            </fieldset>
          )}
        </div>


        <fieldset className="field choice-group booking-email-language" aria-describedby="booking-email-language-hint">
          <legend>{t('booking:choose.emailLanguageLegend')}</legend>
          <div className="choices">
            {locales.map((code) => (
              <label key={code} className="choice" htmlFor={`booking-email-${code}`}>
                <input id={`booking-email-${code}`} type="radio" value={code} lang={code} {...register('emailLocale')} />
                <span lang={code}>{t(`common:language.${code}`)}</span>
              </label>
            ))}
          </div>
          <p id="booking-email-language-hint" className="hint">
            {t('booking:choose.emailLanguageHint')}
          </p>
        </fieldset>

        {holdError !== null && (
          <p role="alert" className="error-text">
            {holdError.text}
            {holdError.toConsent && consentRoute !== undefined && (
              <>
                {' '}
                <Link to={consentRoute}>{t('booking:hold.toConsent')}</Link>
              </>
            )}
          </p>
        )}
        <div className="actions">
          <button ref={holdButton} type="submit" className="primary" disabled={holding} aria-describedby="booking-hold-hint">
            {t('booking:choose.hold')}
          </button>
          <BusyStatus busy={holding}>{t('booking:choose.holding')}</BusyStatus>
        </div>
        <p id="booking-hold-hint" className="hint">
          {t('booking:choose.holdHint')}
        </p>
        {/* After the hold: the calendar, the times and the hold keep their keyboard order. */}
        <WaitlistPanel
          appointmentId={appointmentId}
          waitlist={waitlist}
          today={today}
          lastDay={addDays(today, horizonDays)}
          chosenDate={date}
          counselors={counselors}
          nameOf={nameOf}
          locale={locale}
          prominent={noneAtAll || noneThisMonth}
        />
      </form>
    </>
  );
}
