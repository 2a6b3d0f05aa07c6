/**
 * The way on from the review. With a live hold: the chosen date, time, counselor and e-mail
 * language (the countdown and the renewals are the page's HeldTimeBar), and "Confirm booking"
 * (`appointment-updateStatus` submitted) - "Continue to payment" for a priced service, which
 * leads to the checkout. Without one: "Continue to choose a date and time". Until nothing is
 * missing and the terms are agreed, the button is `aria-disabled` and a click says why. A
 * booking waiting for its payment (back from a cancelled payment) still shows its time.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import './booking.css';
import { bookedTime, liveHold } from './hold';
import { priceOf } from './payment';
import { useNow } from './useNow';
import type { Locale } from '../i18n/locale';
import { APPOINTMENT_ROUTE, definition, definitionMessage } from '../intake';
import { callFunction, errorMessageKey, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectService } from '../store/selectors';
import { BookingSummary } from './BookingSummary';
import { isRecord } from '../isRecord';
import { BusyStatus } from '../components/Loading';

export interface BookingSubmitProps {
  appointmentId: string;
  document: Record<string, unknown>;
  timeZone: string;
  locale: Locale;
  /** Nothing missing and the terms agreed (the review's own checks). */
  ready: boolean;
  /** Says why the person cannot go on yet (focus on the missing list or the terms). */
  explain: () => void;
  /** The server found the terms not agreed. */
  onTermsRefused: () => void;
}

type SubmitProblem =
  | { kind: 'missing'; steps: { id: string; title: string; route: string | null }[] }
  | { kind: 'holdExpired' }
  | { kind: 'other'; message: string };

export function BookingSubmit({ appointmentId, document, timeZone, locale, ready, explain, onTermsRefused }: BookingSubmitProps) {
  const { t } = useTranslation(['booking', 'intake', 'errors']);
  const navigate = useNavigate();
  const service = useAppStore(selectService);
  const now = useNow(1000);
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState<SubmitProblem | null>(null);
  const problemRef = useRef<HTMLDivElement>(null);
  const status = document.status;
  const held = liveHold(document, timeZone, now);
  const chosen = bookedTime(document, timeZone);
  const lapsed = status === 'draft' && held === null && chosen !== null && chosen.expiresAt !== null;
  // Waiting for its payment (back from a cancelled payment): the time is still the booking's.
  const shown = status === 'pending_payment' ? chosen : held;
  const priced = priceOf(service?.exists ? service.data : null) !== null;

  const show = (next: SubmitProblem) => {
    setProblem(next);
    requestAnimationFrame(() => problemRef.current?.focus());
  };

  const submit = async () => {
    setSubmitting(true);
    setProblem(null);
    try {
      const reply = await callFunction<{ status?: unknown }>('appointment-updateStatus', { appointmentId, status: 'submitted' });
      void navigate(reply.status === 'pending_payment' ? '/b/checkout' : '/b/confirmed');
    } catch (error) {
      setSubmitting(false);
      const details: unknown = error instanceof FunctionsError ? error.details : undefined;
      if (error instanceof FunctionsError && error.code === 'invalid-argument' && isRecord(details) && isRecord(details.missing)) {
        show({
          kind: 'missing',
          steps: Object.keys(details.missing).map((id) => {
            const step = definition.steps.find((candidate) => candidate.id === id);
            return { id, title: step ? step.title[locale] : id, route: step ? step.route : null };
          }),
        });
      } else if (
        error instanceof FunctionsError &&
        error.code === 'invalid-argument' &&
        isRecord(details) &&
        isRecord(details.codes) &&
        details.codes.agreedToTerms === 'terms'
      ) {
        onTermsRefused();
      } else if (error instanceof FunctionsError && error.code === 'aborted') {
        // Submitted already (another tab, a lost answer): go where the appointment now is.
        const current = isRecord(details) ? details.status : undefined;
        if (current === 'pending_payment') void navigate('/b/checkout');
        else if (current === 'confirmed') void navigate('/b/confirmed');
        else show({ kind: 'holdExpired' });
      } else {
        show({ kind: 'other', message: t(errorMessageKey(error)) });
      }
    }
  };

  let label: string;
  let onClick: () => void;
  let disabled = !ready || submitting;
  if (status === 'pending_payment') {
    label = t('booking:submit.toPayment');
    disabled = false;
    onClick = () => void navigate('/b/checkout');
  } else if (status === 'confirmed') {
    label = t('booking:submit.toConfirmed');
    disabled = false;
    onClick = () => void navigate('/b/confirmed');
  } else if (held) {
    label = priced ? t('booking:submit.toPayment') : t('booking:submit.confirm');
    onClick = () => {
      if (submitting) return;
      if (!ready) explain();
      else void submit();
    };
  } else {
    label = t('intake:review.continue');
    onClick = () => {
      if (!ready) explain();
      else void navigate(APPOINTMENT_ROUTE);
    };
  }

  return (
    <div className="booking-submit">
      {shown && (
        <section className="card booking-held-card" aria-labelledby="booking-held-heading">
          <h2 id="booking-held-heading">{t('booking:submit.heading')}</h2>
          <BookingSummary booked={shown} locale={locale} emailLocale={document.locale ?? null} />
          {status === 'draft' && (
            <p className="hint">
              {t('booking:submit.holdHint')} <Link to={APPOINTMENT_ROUTE}>{t('booking:submit.changeTime')}</Link>
            </p>
          )}
        </section>
      )}
      {lapsed && (
        // Not an alert: the countdown at the top of the page has said it (HeldTimeBar).
        <p className="notice">
          {t('booking:hold.expired')} <Link to={APPOINTMENT_ROUTE}>{t('booking:hold.chooseAgain')}</Link>
        </p>
      )}
      {problem && (
        <div ref={problemRef} role="alert" className="notice booking-submit-problem" tabIndex={-1}>
          {problem.kind === 'missing' && (
            <>
              <p>{definitionMessage('reviewMissing', locale)}</p>
              <ul>
                {problem.steps.map((step) => (
                  <li key={step.id}>{step.route === null ? step.title : <Link to={step.route}>{step.title}</Link>}</li>
                ))}
              </ul>
            </>
          )}
          {problem.kind === 'holdExpired' && (
            <p>
              {t('booking:hold.expired')} <Link to={APPOINTMENT_ROUTE}>{t('booking:hold.chooseAgain')}</Link>
            </p>
          )}
          {problem.kind === 'other' && <p>{problem.message}</p>}
        </div>
      )}
      <div className="actions">
        <button type="button" className="primary" aria-disabled={disabled} onClick={onClick}>
          {label}
        </button>
        <BusyStatus busy={submitting}>{t('booking:submit.submitting')}</BusyStatus>
      </div>
    </div>
  );
}
