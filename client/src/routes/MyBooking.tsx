/**
 * /b/booking (`?id=`, `&action=cancel`): the person's booking (docs/product.md "My booking"):
 * the service, the date with its weekday, start and end in the clinic's zone and the person's
 * own when it differs, the counselor, the payment and its receipt, the join link while
 * confirmed, "add to calendar", the way to reschedule or cancel, the answers read-only, and
 * the other appointments. Read from `appointments-mine` (again on every change of the current
 * appointment's document); the answers from the live document of the current appointment.
 * Mail links open it (`?action=cancel` opens the cancel dialog at once).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { EraseAccountSection } from '../account/EraseAccountSection';
import { linkAllows } from '../auth/linkSession';
import { SignInForMore } from '../auth/SignInForMore';
import { AddToCalendar } from '../booking/AddToCalendar';
import { JoinLink } from '../booking/JoinLink';
import { useCounselorName } from '../booking/BookingSummary';
import { CancelDialog } from '../booking/CancelDialog';
import { browserZone, formatPrice, whenOf } from '../booking/format';
import { bookedTime } from '../booking/hold';
import { MY_BOOKING_ROUTE, reschedulePath } from '../booking/paths';
import { CHANGEABLE, clockIn, ENDED, shownAppointment, type AppointmentSummary, type PaymentSummary } from '../booking/myAppointments';
import { OtherAppointments } from '../booking/OtherAppointments';
import { refundOfPayment } from '../booking/refund';
import { RefundLine } from '../booking/RefundState';
import { startAgainOffer } from '../booking/ended';
import { START_AGAIN_PATH, StartAgainChoice } from '../booking/StartAgain';
import { useMyAppointments } from '../booking/useMyAppointments';
import { useServiceNames } from '../booking/useServiceNames';
import { ClinicDocumentLink } from '../components/ClinicDocumentLink';
import { ErrorText } from '../components/FieldParts';
import { Loading } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import type { Locale } from '../i18n/locale';
import { applicableSteps } from '../intake';
import { ReviewAnswers } from '../intake/ReviewAnswers';
import { useIntake } from '../intake/useIntake';
import { errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAppointment, selectAppointmentId, selectAuthUser, selectCurrentStatus, selectLocale } from '../store/selectors';
import '../booking/booking.css';


/** The lead of My booking opened by a mail link, by the link's purpose. */
function linkLead(purpose: string | undefined) {
  if (purpose === 'cancel') return 'routes:myBooking.descriptionCancel' as const;
  if (purpose === 'reschedule') return 'routes:myBooking.descriptionReschedule' as const;
  return 'routes:myBooking.descriptionView' as const;
}
/** The payment in one line (amount paid, due, refunded), or null when nothing is charged. */
/** Payment states of a payment that went through (docs/protocol.md "Cancelling and refunds"). */
const PAID_STATES: ReadonlySet<string> = new Set(['paid', 'refund_pending', 'refunded', 'not_refunded']);

function usePaymentText(locale: Locale): (payment: PaymentSummary | null) => string | null {
  const { t } = useTranslation('booking');
  return (payment) => {
    if (payment === null) return null;
    const amount = formatPrice(payment, locale);
    // Paid, and maybe (partly) refunded since: the refund's state is its own line (RefundState).
    return payment.status !== null && PAID_STATES.has(payment.status) ? t('myBooking.paid', { amount }) : t('myBooking.unpaid', { amount });
  };
}

/** The appointment's time: start with weekday (clinic and own), end, counselor. */
function TimeRows({ shown, locale }: { shown: AppointmentSummary; locale: Locale }) {
  const { t } = useTranslation('booking');
  const nameOf = useCounselorName(locale);
  if (shown.date === null || shown.time === null || shown.timezone === null) return null;
  const when = whenOf(shown.date, shown.time, shown.timezone, locale);
  const clinicEnd = clockIn(shown.end, shown.timezone, locale);
  const ownEnd = when.person !== null ? clockIn(shown.end, browserZone(), locale, 'person') : null;
  return (
    <>
      <div>
        <dt>{t('summary.when')}</dt>
        <dd className="my-booking-when">{when.clinic}</dd>
      </div>
      {clinicEnd !== null && (
        <div>
          <dt>{t('myBooking.ends')}</dt>
          <dd className="my-booking-end">{ownEnd !== null ? t('when.both', { clinic: clinicEnd, person: ownEnd }) : clinicEnd}</dd>
        </div>
      )}
      {when.person !== null && (
        <div>
          <dt>{t('summary.yourTime')}</dt>
          <dd>{when.person}</dd>
        </div>
      )}
      <div>
        <dt>{t('summary.counselor')}</dt>
        <dd>{nameOf(shown.counselorId)}</dd>
      </div>
    </>
  );
}

/** The answers of the current appointment, read-only (the review page's renderer). */
function Answers() {
  const { t } = useTranslation(['booking', 'intake']);
  const locale = useAppStore(selectLocale);
  const intake = useIntake();
  if (intake.status !== 'ready') return null;
  const display = { locale, category: intake.category, listSeparator: t('intake:listSeparator') };
  return (
    <section className="card my-booking-answers" aria-labelledby="my-booking-answers-heading">
      <h2 id="my-booking-answers-heading">{t('booking:myBooking.answers')}</h2>
      <p className="hint">
        {t('booking:myBooking.answersHint')}{' '}
        <Link to={`/contact?${new URLSearchParams({ id: intake.appointmentId }).toString()}`}>{t('booking:contactUs')}</Link>
      </p>
      {applicableSteps(intake.scope).map((step) => (
        <ReviewAnswers key={step.id} step={step} document={intake.document} display={display} editable={false} level={3} />
      ))}
    </section>
  );
}

export default function MyBooking() {
  const { t } = useTranslation(['routes', 'booking', 'errors']);
  const locale = useAppStore(selectLocale);
  const [search, setSearch] = useSearchParams();
  const currentId = useAppStore(selectAppointmentId);
  const current = useAppStore(selectAppointment);
  const currentStatus = useAppStore(selectCurrentStatus);
  const currentVersion = current?.path === `appointments/${currentId ?? ''}` ? current.version : 0;
  const mine = useMyAppointments(`${currentId ?? ''}:${String(currentVersion)}`);
  const list = mine.status === 'ready' ? mine.list : [];
  const serviceName = useServiceNames(list, locale);
  const paymentText = usePaymentText(locale);
  const [cancelling, setCancelling] = useState(search.get('action') === 'cancel');
  // A booking mail's link session: this booking's facts only, and its link's one action.
  const user = useAppStore(selectAuthUser);
  const byLink = user?.link !== undefined;

  const title = t('routes:myBooking.title');
  // A mail link's page says what that link lets the person do here (its one action, or reading).
  const lead = t(byLink ? linkLead(user.link?.purpose) : 'routes:myBooking.description');
  if (mine.status === 'loading') {
    return (
      <Screen title={title} lead={lead}>
        <Loading />
      </Screen>
    );
  }
  if (mine.status === 'failed') {
    return (
      <Screen title={title} lead={lead}>
        <ErrorText>{t(errorMessageKey(mine.error))}</ErrorText>
      </Screen>
    );
  }

  const requested = search.get('id');
  if (requested === null && currentStatus === 'draft') {
    // The person's current appointment is being written (just opened by "book again", or
    // never submitted): its place is the questionnaire.
    return <Navigate to={START_AGAIN_PATH} replace />;
  }
  const shown = shownAppointment(list, requested, currentId);
  const others = list.filter((entry) => entry.id !== shown?.id && entry.status !== 'draft');
  if (shown === null || shown.status === 'draft') {
    // A draft is still being written: its place is the questionnaire, not this page.
    return (
      <Screen title={title} lead={lead}>
        <p className="notice" role="status">
          {requested !== null && shown === null ? t('booking:myBooking.notFound') : t('booking:myBooking.none')}{' '}
          {requested !== null && shown === null ? (
            <Link to={MY_BOOKING_ROUTE}>{t('booking:myBooking.toCurrent')}</Link>
          ) : (
            <Link to="/b/clinic">{t('booking:myBooking.start')}</Link>
          )}
        </p>
        <OtherAppointments list={others} locale={locale} serviceName={serviceName} />
      </Screen>
    );
  }

  const changeable = CHANGEABLE.has(shown.status);
  const mayReschedule = changeable && linkAllows(user, 'reschedule');
  const mayCancel = changeable && linkAllows(user, 'cancel');
  const ended = ENDED.has(shown.status);
  const isCurrent = shown.id === currentId;
  const startAgain = isCurrent ? startAgainOffer(current) : null;
  const payment = paymentText(shown.payment);
  const refund = refundOfPayment(shown.payment);
  const calendarEvent =
    shown.status === 'confirmed' && shown.start !== null && shown.end !== null
      ? { title: serviceName(shown.serviceId) ?? t('booking:checkout.serviceUnnamed'), start: shown.start, end: shown.end, joinUrl: shown.joinUrl }
      : null;
  const closeCancel = () => {
    setCancelling(false);
    if (search.has('action')) {
      const rest = new URLSearchParams(search);
      rest.delete('action');
      setSearch(rest, { replace: true });
    }
  };

  return (
    <Screen title={title} lead={lead}>
      <section className="card my-booking" aria-labelledby="my-booking-heading">
        <h2 id="my-booking-heading">{t('booking:myBooking.heading')}</h2>
        <dl className="booking-summary">
          <div>
            <dt>{t('booking:myBooking.service')}</dt>
            <dd>{serviceName(shown.serviceId) ?? t('booking:checkout.serviceUnnamed')}</dd>
          </div>
          <div>
            <dt>{t('booking:myBooking.status')}</dt>
            <dd className="my-booking-status">{t(`booking:myBooking.statuses.${shown.status}`, { defaultValue: shown.status })}</dd>
          </div>
          <TimeRows shown={shown} locale={locale} />
          {payment !== null && (
            <div>
              <dt>{t('booking:myBooking.payment')}</dt>
              <dd>
                {payment}
                {refund !== null && (
                  <>
                    {' '}
                    <RefundLine view={refund} />
                  </>
                )}
                {shown.payment?.receiptUrl && (
                  <>
                    {' '}
                    <a href={shown.payment.receiptUrl} target="_blank" rel="noopener noreferrer">
                      {t('booking:myBooking.receipt')}
                    </a>
                  </>
                )}
              </dd>
            </div>
          )}
        </dl>
        {shown.status === 'confirmed' && <JoinLink joinUrl={shown.joinUrl} />}
        {shown.status === 'pending_payment' && isCurrent && (
          <p className="notice" role="status">
            {t('booking:myBooking.pendingPayment')} <Link to="/b/checkout">{t('booking:locked.toCheckout')}</Link>
          </p>
        )}
        {ended && (
          <p className="notice" role="status">
            {t(`booking:myBooking.ended.${shown.status}`, { defaultValue: shown.status })}
          </p>
        )}
        {calendarEvent !== null && <AddToCalendar appointmentId={shown.id} event={calendarEvent} />}
        <ClinicDocumentLink clinicId={shown.clinicId} document="brochure" />
        <div className="actions my-booking-actions">
          {mayReschedule && (
            <Link className="my-booking-reschedule" to={reschedulePath(shown.id)}>
              {t('booking:myBooking.reschedule')}
            </Link>
          )}
          {mayCancel && (
            <button type="button" className="secondary danger" onClick={() => {
                setCancelling(true);
              }}
            >
              {t('booking:cancel.open')}
            </button>
          )}
          {ended && isCurrent && startAgain !== null && <StartAgainChoice offer={startAgain} />}
        </div>
      </section>
      {isCurrent && <Answers />}
      {byLink && <SignInForMore />}
      <OtherAppointments list={others} locale={locale} serviceName={serviceName} />
      {!byLink && <EraseAccountSection />}
      {cancelling && mayCancel && (
        <CancelDialog appointmentId={shown.id} booked={bookedTime(shown, shown.timezone ?? browserZone())} locale={locale} onClose={closeCancel} />
      )}
    </Screen>
  );
}
