/**
 * The inactivity countdown of a signed-in person (see inactivity.ts), bound to the page:
 * keyboard, click and mouse events anywhere, the server's `session` events, and at zero a
 * sign-out and the login screen with "Your session has ended".
 */
import { useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppStore } from '../store';
import { selectIsSignedIn } from '../store/selectors';
import { PresenceContext } from './deps';
import { createInactivityMonitor, type InactivityState } from './inactivity';
import { stepForPath } from './step';

/** What counts as activity (spec: keyboard, click or mouse). */
export const ACTIVITY_EVENTS = ['keydown', 'click', 'mousedown', 'mousemove', 'pointerdown', 'wheel', 'touchstart'] as const;

export interface Inactivity {
  state: InactivityState;
  /** The warning's "Continue" button. */
  continueSession: () => void;
}

export function useInactivity(): Inactivity {
  const deps = useContext(PresenceContext);
  const signedIn = useAppStore(selectIsSignedIn);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pathRef = useRef(pathname);
  const navigateRef = useRef(navigate);

  useEffect(() => {
    pathRef.current = pathname;
    navigateRef.current = navigate;
  }, [pathname, navigate]);

  const [monitor] = useState(() => createInactivityMonitor());

  useEffect(() => {
    if (!signedIn) return;
    monitor.start({
      send: (step) => {
        deps.realtime.activity(step);
      },
      step: () => stepForPath(pathRef.current),
      onExpire: () => {
        // A server `expired` is also handled by the after-sign-in bindings: whoever is first
        // signs out, the other finds nobody signed in.
        if (!selectIsSignedIn(useAppStore.getState())) return;
        void deps.signOut().then(() => {
          useAppStore.getState().setLoginNotice('sessionEnded');
          void navigateRef.current('/', { replace: true });
        });
      },
    });
    const onActivity = () => {
      monitor.activity();
    };
    const target = deps.window;
    for (const type of ACTIVITY_EVENTS) target.addEventListener(type, onActivity, { capture: true, passive: true });
    const offSession = deps.realtime.onSession((notice) => {
      monitor.session(notice);
    });
    return () => {
      for (const type of ACTIVITY_EVENTS) target.removeEventListener(type, onActivity, { capture: true });
      offSession();
      monitor.stop();
    };
  }, [signedIn, monitor, deps]);

  const state = useSyncExternalStore(monitor.subscribe, monitor.getState);
  return { state, continueSession: monitor.continueSession };
}
