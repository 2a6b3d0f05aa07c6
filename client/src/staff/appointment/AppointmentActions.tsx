/**
 * What staff may do with an appointment (docs/protocol.md "Staff reading and acting"), each
 * offered only where the status machine allows it (contract.json `appointmentTransitions`):
 * mark a confirmed appointment completed or no-show (`appointment-updateStatus`), cancel it for
 * the clinic with a reason (`appointment-cancel`, `byClinic`), send the counselor's
 * notification again (`sendEmail-counselor`, confirmed appointments: realtime/booking/notify.py).
 * Each is sent once; the outcome is announced in the staff member's language and the
 * appointment read again (it is not a live document for staff).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/FieldParts';
import { BusyStatus } from '../../components/Loading';
import { isRecord } from '../../isRecord';
import { callFunction, errorMessageKey, FunctionsError } from '../../realtime';
import { canMove, type StaffAppointment } from './read';
import { StaffCancelDialog } from './StaffCancelDialog';

type Done = 'completed' | 'no_show' | 'cancelled' | 'resent';

export function AppointmentActions({
  appointment,
  reload,
}: {
  appointment: StaffAppointment;
  reload: () => Promise<StaffAppointment | null>;
}) {
  const { t } = useTranslation(['staff', 'errors']);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [cancelProblem, setCancelProblem] = useState<string | null>(null);
  const { id, status } = appointment;

  /** The refusal in words; a status that changed meanwhile is said as such. */
  const refusal = (error: unknown): string => {
    const details: unknown = error instanceof FunctionsError ? error.details : undefined;
    if (error instanceof FunctionsError && error.code === 'aborted' && isRecord(details) && typeof details.status === 'string') {
      return t('staff:appointment.statusChangedMeanwhile', { status: t(`staff:status.${details.status}`, { defaultValue: details.status }) });
    }
    return `${t('staff:appointment.failed')} ${t(errorMessageKey(error))}`;
  };

  const run = async (action: () => Promise<unknown>, outcome: Done): Promise<boolean> => {
    setBusy(true);
    setDone(null);
    setProblem(null);
    try {
      await action();
      setDone(outcome);
      return true;
    } catch (error) {
      setProblem(refusal(error));
      return false;
    } finally {
      setBusy(false);
      await reload();
    }
  };
  const once = { maxAttempts: 1 };
  const setStatus = (target: 'completed' | 'no_show') => () =>
    void run(() => callFunction('appointment-updateStatus', { appointmentId: id, status: target }, once), target);

  const offers = {
    completed: canMove(status, 'completed'),
    noShow: canMove(status, 'no_show'),
    cancel: canMove(status, 'cancelled'),
    resend: status === 'confirmed',
  };
  const none = !Object.values(offers).some(Boolean);

  return (
    <section className="staff-panel staff-actions no-print" aria-labelledby="appointment-actions">
      <h2 id="appointment-actions">{t('staff:appointment.actionsTitle')}</h2>
      {none ? (
        <p>{t('staff:appointment.noActions')}</p>
      ) : (
        <div className="actions">
          {offers.completed && (
            <button type="button" className="primary" disabled={busy} onClick={setStatus('completed')}>
              {t('staff:appointment.markCompleted')}
            </button>
          )}
          {offers.noShow && (
            <button type="button" className="secondary" disabled={busy} onClick={setStatus('no_show')}>
              {t('staff:appointment.markNoShow')}
            </button>
          )}
          {offers.resend && (
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => void run(() => callFunction('sendEmail-counselor', { appointmentId: id }, once), 'resent')}
            >
              {t('staff:appointment.resend')}
            </button>
          )}
          {offers.cancel && (
            <button
              type="button"
              className="secondary danger"
              disabled={busy}
              onClick={() => {
                setCancelProblem(null);
                setCancelling(true);
              }}
            >
              {t('staff:appointment.cancel')}
            </button>
          )}
          <BusyStatus busy={busy && !cancelling}>{t('staff:appointment.working')}</BusyStatus>
        </div>
      )}
      <div role="status" className="staff-action-done">
        {done !== null && t(`staff:appointment.done.${done}`)}
      </div>
      {problem !== null && <ErrorText>{problem}</ErrorText>}
      {cancelling && (
        <StaffCancelDialog
          problem={cancelProblem}
          onClose={() => {
            setCancelling(false);
          }}
          onConfirm={async (reason) => {
            try {
              await callFunction('appointment-cancel', { appointmentId: id, reason, byClinic: true }, once);
            } catch (error) {
              setCancelProblem(refusal(error));
              return;
            }
            setCancelling(false);
            setDone('cancelled');
            setProblem(null);
            await reload();
          }}
        />
      )}
    </section>
  );
}
