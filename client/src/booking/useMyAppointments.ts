/**
 * `appointments-mine`, read when My booking opens and again whenever the current
 * appointment's document changes (a payment, a cancel, a new time), so the page follows it.
 */
import { useEffect, useState } from 'react';
import { callFunction } from '../realtime';
import { parseMine, type AppointmentSummary } from './myAppointments';

export type MyAppointments = { status: 'loading' } | { status: 'failed'; error: unknown } | { status: 'ready'; list: AppointmentSummary[] };

export function useMyAppointments(refreshKey: string): MyAppointments {
  const [state, setState] = useState<MyAppointments>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    callFunction('appointments-mine', {}).then(
      (reply) => {
        if (live) setState({ status: 'ready', list: parseMine(reply) });
      },
      (error: unknown) => {
        // A later read (the next change) may still succeed: keep what was shown if anything.
        if (live) setState((previous) => (previous.status === 'ready' ? previous : { status: 'failed', error }));
      },
    );
    return () => {
      live = false;
    };
  }, [refreshKey]);
  return state;
}
