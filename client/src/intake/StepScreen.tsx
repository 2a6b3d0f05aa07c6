/**
 * A questionnaire screen for one definition step: title, progress, the consent gate until
 * consent is given, then the step form; the retention notice and the save status. A step that
 * does not apply to the appointment's service leads on to the next one that does.
 */
import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { definitionMessage, isStepApplicable, nextRoute, stepById, type FormValue } from './index';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { ConsentGate } from './ConsentGate';
import { SaveStatusLine } from './SaveStatusLine';
import { Screen } from '../components/ScreenPlaceholder';
import { StepForm, type RemoteCheck } from './StepForm';
import { StepProgress } from './StepProgress';
import { useIntake } from './useIntake';
import { WhenIntakeReady } from './WhenIntakeReady';

export interface StepScreenProps {
  stepId: string;
  /** The one-line purpose under the title. */
  lead: string;
  prefill?: Record<string, FormValue>;
  /** Below the form once consent is given, given the route of the next step (the clinic step's "continue without a code"). */
  after?: (next: string) => ReactNode;
  /** An answer the server checks as it is typed (the clinic step's provider code). */
  remoteCheck?: RemoteCheck;
}

export function StepScreen({ stepId, lead, prefill, after, remoteCheck }: StepScreenProps) {
  const locale = useAppStore(selectLocale);
  const step = stepById(stepId);
  const intake = useIntake();
  const [consented, setConsented] = useState<string | null>(null);

  return (
    <WhenIntakeReady intake={intake} title={step.title[locale]} lead={lead}>
      {(intake) => {
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
                <>
                  <StepForm key={`${intake.appointmentPath}:${step.id}`} step={step} intake={intake} {...(prefill ? { prefill } : {})} {...(remoteCheck ? { remoteCheck } : {})} />
                  {after?.(next)}
                </>
              ) : (
                // Alone until agreed: a way past the step here would only lead to the consent again.
                <ConsentGate appointmentId={intake.appointmentId} version={consentVersion} locale={locale} onGiven={setConsented} />
              )}
            </div>
            <SaveStatusLine />
            <p className="retention hint">{definitionMessage('retention', locale)}</p>
          </Screen>
        );
      }}
    </WhenIntakeReady>
  );
}
