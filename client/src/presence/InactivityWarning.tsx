import { Suspense, type ReactNode } from 'react';
import { InactivityDialog } from './InactivityDialog';
import { useInactivity } from './useInactivity';

export interface InactivityWarningProps {
  /** The connection is lost: the server cannot be told of activity, so the warning waits. */
  lost: boolean;
  /** The frame's other dialog (the question before signing out), which waits while the warning shows. */
  children?: ReactNode;
}

/**
 * The inactivity countdown of a signed-in person and its warning (docs/product.md
 * "Behaviours across screens"), rendered by the frame while someone is signed in and loaded
 * with the first sign-in, not with the first screen (presence/dialogs.ts). While the warning
 * shows, the page behind is inert (the dialog sees to it).
 */
export function InactivityWarning({ lost, children }: InactivityWarningProps) {
  const inactivity = useInactivity();
  if (lost || inactivity.state.phase !== 'warning') return children;
  return (
    // Its words (screens) load after the first screen: never hold the page for them.
    <Suspense fallback={null}>
      <InactivityDialog secondsLeft={inactivity.state.secondsLeft} onContinue={inactivity.continueSession} />
    </Suspense>
  );
}
