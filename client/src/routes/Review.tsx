import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { retryRoute } from '../booking/payment';
import { BookingSubmit } from '../booking/BookingSubmit';
import { PaymentFailedDialog } from '../booking/PaymentFailedDialog';
import { ReviewAnswers } from '../intake/ReviewAnswers';
import { SaveStatusLine } from '../intake/SaveStatusLine';
import { Screen } from '../components/ScreenPlaceholder';
import { StepProgress } from '../intake/StepProgress';
import { useIntake } from '../intake/useIntake';
import { WhenIntakeReady } from '../intake/WhenIntakeReady';
import { applicableSteps, definitionMessage, missingAnswers, REVIEW_ROUTE } from '../intake';
import { errorMessageKey, FunctionsError, outbox } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { ErrorText, FieldError } from '../components/FieldParts';

/**
 * /b/review: every applicable answer grouped by step with an "Edit" link, what is missing
 * (with links to those steps), the terms of service (`agreedToTerms`), and the way on: with a
 * live hold, the chosen time and "Confirm booking" (booking/BookingSubmit); without one,
 * on to the calendar. `?payment=cancelled` (back from the payment page) shows the payment
 * failure dialog with "Try again".
 */
export default function Review() {
  const { t } = useTranslation(['routes', 'intake', 'errors']);
  const locale = useAppStore(selectLocale);
  const intake = useIntake();
  const navigate = useNavigate();
  const termsId = useId();
  const termsErrorId = `${termsId}-error`;
  const missingRef = useRef<HTMLDivElement>(null);
  const termsRef = useRef<HTMLInputElement>(null);
  /**
   * The person's choice while its save is on its way: shown until the document holds the
   * version the save committed (`until`), then the document speaks again.
   */
  const [pending, setPending] = useState<{ value: boolean; until: number | null } | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [termsRefused, setTermsRefused] = useState(false);
  const [search, setSearch] = useSearchParams();
  const paymentCancelled = search.get('payment') === 'cancelled';
  const stored = intake.status === 'ready' && intake.document.agreedToTerms === true;
  const version = intake.status === 'ready' ? intake.version : 0;

  const title = t('routes:bookingReview.title');
  const lead = t('routes:bookingReview.description');
  return (
    <WhenIntakeReady intake={intake} title={title} lead={lead}>
      {(intake) => {

        const context = { category: intake.category, today: intake.today };
        const steps = applicableSteps(intake.scope);
        const incomplete = steps.filter((step) => missingAnswers(step, intake.document, context).length > 0);
        const agreed = pending !== null && (pending.until === null || version < pending.until) ? pending.value : stored;
        const ready = incomplete.length === 0 && agreed;
        const display = { locale, category: intake.category, listSeparator: t('intake:listSeparator') };
        const showTermsMessage = (attempted && !agreed) || termsRefused;

        return (
          <Screen title={title} lead={lead}>
            <StepProgress current={REVIEW_ROUTE} scope={intake.scope} locale={locale} />
            {incomplete.length > 0 && (
              <div ref={missingRef} role="alert" className="notice review-missing" tabIndex={-1}>
                <p>{definitionMessage('reviewMissing', locale)}</p>
                <ul>
                  {incomplete.map((step) => (
                    <li key={step.id}>
                      <Link to={step.route}>{step.title[locale]}</Link>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {steps.map((step) => (
              <ReviewAnswers key={step.id} step={step} document={intake.document} display={display} />
            ))}
            <div className="card terms">
              <p>
                <Link to="/terms">{t('intake:review.termsLink')}</Link>
              </p>
              <div className="field" data-invalid={showTermsMessage || undefined}>
                <label className="choice" htmlFor={termsId}>
                  <input
                    ref={termsRef}
                    id={termsId}
                    type="checkbox"
                    checked={agreed}
                    aria-invalid={showTermsMessage}
                    aria-describedby={showTermsMessage ? termsErrorId : undefined}
                    onChange={(event) => {
                      const checked = event.target.checked;
                      const mine = { value: checked, until: null };
                      setPending(mine);
                      setSaveError(null);
                      setTermsRefused(false);
                      outbox.send(intake.appointmentPath, { agreedToTerms: checked }).then(
                        (result) => {
                          setPending((current) => (current === mine ? { value: checked, until: result.version } : current));
                        },
                        (error: unknown) => {
                          setPending((current) => (current === mine ? null : current));
                          if (!(error instanceof FunctionsError && error.code === 'cancelled')) setSaveError(t(errorMessageKey(error)));
                        },
                      );
                    }}
                  />
                  <span>{t('intake:review.termsAgree')}</span>
                </label>
                <FieldError id={termsErrorId} issue={showTermsMessage ? definitionMessage('terms', locale) : null} />
                {saveError !== null && <ErrorText>{saveError}</ErrorText>}
              </div>
            </div>
            <BookingSubmit
              appointmentId={intake.appointmentId}
              document={intake.document}
              timeZone={intake.timeZone}
              locale={locale}
              ready={ready}
              explain={() => {
                setAttempted(true);
                if (incomplete.length > 0) missingRef.current?.focus();
                else termsRef.current?.focus();
              }}
              onTermsRefused={() => {
                setTermsRefused(true);
                termsRef.current?.focus();
              }}
            />
            <SaveStatusLine />
            <p className="retention hint">{definitionMessage('retention', locale)}</p>
            {paymentCancelled && (
              <PaymentFailedDialog
                appointmentId={intake.appointmentId}
                onRetry={() => {
                  void navigate(retryRoute(intake.document, intake.timeZone, Date.now()));
                }}
                onClose={() => {
                  setSearch(
                    (current) => {
                      const next = new URLSearchParams(current);
                      next.delete('payment');
                      return next;
                    },
                    { replace: true },
                  );
                }}
              />
            )}
          </Screen>
        );
      }}
    </WhenIntakeReady>
  );
}
