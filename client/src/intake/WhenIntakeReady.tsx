/**
 * The one guard of the screens that need the appointment and its service: until both are in,
 * the screen's title with a spinner; when the service cannot be read, its title and the
 * "service unavailable" notice; once ready, `children` given the ready intake.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import type { IntakeState } from './useIntake';

export type ReadyIntake = Extract<IntakeState, { status: 'ready' }>;

export interface WhenIntakeReadyProps {
  /** The screen's `useIntake()`. */
  intake: IntakeState;
  /** The screen's title and lead, shown while it waits too. */
  title: string;
  lead?: ReactNode;
  children: (intake: ReadyIntake) => ReactNode;
}

export function WhenIntakeReady({ intake, title, lead, children }: WhenIntakeReadyProps) {
  const { t } = useTranslation('intake');
  if (intake.status === 'ready') return children(intake);
  return (
    <Screen title={title} lead={lead}>
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
