/**
 * A questionnaire screen for one definition step: title, progress, the consent gate until
 * consent is given, then the step form; the retention notice and the save status. A step that
 * does not apply to the appointment's service leads on to the next one that does.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { definitionMessage, isStepApplicable, nextRoute, stepById, type FormValue } from './index';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { ConsentGate } from './ConsentGate';
import { Loading } from '../components/Loading';
import { SaveStatusLine } from './SaveStatusLine';
import { Screen } from '../components/ScreenPlaceholder';
import { StepForm } from './StepForm';
import { StepProgress } from './StepProgress';
import { useIntake } from './useIntake';

export interface StepScreenProps {
  stepId: string;
  /** The one-line purpose under the title. */
  lead: string;
  prefill?: Record<string, FormValue>;
  /** Below the form, given the route of the next step (the clinic step's "continue without a code"). */
  after?: (next: string) => ReactNode;
}

export function StepScreen({ stepId, lead, prefill, after }: StepScreenProps) {
  const { t } = useTranslation('intake');
  const locale = useAppStore(selectLocale);
  const step = stepById(stepId);
  const intake = useIntake();
  const [consented, setConsented] = useState<string | null>(null);

  if (intake.status !== 'ready') {
    return (
      <Screen title={step.title[locale]} lead={lead}>
        {intake.status === 'loading' ? (
          <Loading />
        ) : (
          <p role="alert" className="notice">
            {t('serviceUnavailable')}
          </p>
        )}
      </Screen>
    );
  }
  const next = nextRoute(step.id, intake.scope);
  if (!isStepApplicable(step, intake.scope)) return <Navigate to={next} replace />;
  const { consentVersion, consentGiven } = intake;
  // Consent to the service's current text version (recorded on the appointment, or just given here).
  const given =
    consentVersion === null ? consentGiven !== null : consentGiven === consentVersion || consented === consentVersion;

  return (
    <Screen title={step.title[locale]} lead={lead}>
      <StepProgress current={step.route} scope={intake.scope} locale={locale} />
      <div className="step-body">
        {given ? (
          <StepForm key={`${intake.appointmentPath}:${step.id}`} step={step} intake={intake} {...(prefill ? { prefill } : {})} />
        ) : (
          <ConsentGate appointmentId={intake.appointmentId} version={consentVersion} locale={locale} onGiven={setConsented} />
        )}
        {after?.(next)}
      </div>
      <SaveStatusLine />
      <p className="retention hint">{definitionMessage('retention', locale)}</p>
    </Screen>
  );
}
