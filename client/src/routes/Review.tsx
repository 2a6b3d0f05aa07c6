import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Loading } from '../components/Loading';
import { ReviewAnswers } from '../components/ReviewAnswers';
import { SaveStatusLine } from '../components/SaveStatusLine';
import { Screen } from '../components/ScreenPlaceholder';
import { StepProgress } from '../components/StepProgress';
import { useIntake } from '../components/useIntake';
import { applicableSteps, APPOINTMENT_ROUTE, definitionMessage, missingAnswers, REVIEW_ROUTE } from '../intake';
import { errorMessageKey, FunctionsError, outbox } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';

/**
 * /b/review: every applicable answer grouped by step with an "Edit" link, what is missing
 * (with links to those steps), the terms of service (`agreedToTerms`), and the way on.
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
  const stored = intake.status === 'ready' && intake.document.agreedToTerms === true;
  const version = intake.status === 'ready' ? intake.version : 0;

  const title = t('routes:bookingReview.title');
  const lead = t('routes:bookingReview.description');
  if (intake.status !== 'ready') {
    return (
      <Screen title={title} lead={lead}>
        {intake.status === 'loading' ? (
          <Loading />
        ) : (
          <p role="alert" className="notice">
            {t('intake:serviceUnavailable')}
          </p>
        )}
      </Screen>
    );
  }

  const context = { category: intake.category, today: intake.today };
  const steps = applicableSteps(intake.scope);
  const incomplete = steps.filter((step) => missingAnswers(step, intake.document, context).length > 0);
  const agreed = pending !== null && (pending.until === null || version < pending.until) ? pending.value : stored;
  const ready = incomplete.length === 0 && agreed;
  const display = { locale, category: intake.category, listSeparator: t('intake:listSeparator') };
  const showTermsMessage = attempted && !agreed;

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
          {showTermsMessage && (
            <p id={termsErrorId} role="alert" className="error-text">
              {definitionMessage('terms', locale)}
            </p>
          )}
          {saveError !== null && (
            <p role="alert" className="error-text">
              {saveError}
            </p>
          )}
        </div>
      </div>
      <div className="actions">
        <button
          type="button"
          className="primary"
          aria-disabled={!ready}
          onClick={() => {
            setAttempted(true);
            if (incomplete.length > 0) missingRef.current?.focus();
            else if (!agreed) termsRef.current?.focus();
            else void navigate(APPOINTMENT_ROUTE);
          }}
        >
          {t('intake:review.continue')}
        </button>
      </div>
      <SaveStatusLine />
      <p className="retention hint">{definitionMessage('retention', locale)}</p>
    </Screen>
  );
}
