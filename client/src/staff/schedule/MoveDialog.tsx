/**
 * "Move" for a booking the new hours no longer cover: the free times of its service with the
 * same counselor over the next four weeks (`vacancies-read`), one chosen, then
 * `appointment-reschedule` (staff may: docs/protocol.md "Rescheduling"; the counselor stays,
 * so a counselor may move their own bookings too). A time taken meanwhile is said so and the
 * list is read again.
 */
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BookingDialog } from '../../booking/BookingDialog';
import { placeSlots, parseVacancies, type PlacedSlot } from '../../booking/slots';
import { ErrorText } from '../../components/FieldParts';
import type { Locale } from '../../i18n/locale';
import { addDays, todayIn } from '../../intake/dates';
import { callFunction, errorMessageKey, FunctionsError } from '../../realtime';
import { startOf } from '../instants';
import type { Conflict } from './schedule';

/** How far ahead free times are offered, in days (within `vacancies-read`'s 62). */
const MOVE_DAYS = 28;

/** The free times of `serviceId` with `counselorId`, from today (clinic zone); null while read. */
function useFreeTimes(clinicId: string, serviceId: string | null, counselorId: string, zone: string, round: number) {
  const [slots, setSlots] = useState<{ key: string; slots: PlacedSlot[] } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const key = `${String(serviceId)} ${String(round)}`;
  useEffect(() => {
    if (serviceId === null) return;
    let live = true;
    const today = todayIn(zone);
    callFunction('vacancies-read', { clinicId, serviceId, from: today, to: addDays(today, MOVE_DAYS - 1) }).then(
      (data) => {
        if (!live) return;
        const free = placeSlots(parseVacancies(data).slots, zone).filter((slot) => slot.counselorIds.includes(counselorId));
        setFailure(null);
        setSlots({ key, slots: free });
      },
      (reason: unknown) => {
        if (live) setFailure(reason);
      },
    );
    return () => {
      live = false;
    };
  }, [clinicId, serviceId, counselorId, zone, key]);
  return { slots: slots?.key === key ? slots.slots : null, failure };
}

interface Props {
  clinicId: string;
  conflict: Conflict;
  zone: string;
  locale: Locale;
  onMoved: (conflict: Conflict, words: string) => void;
  onClose: () => void;
}

export function MoveDialog({ clinicId, conflict, zone, locale, onMoved, onClose }: Props) {
  const { t } = useTranslation(['staff', 'errors']);
  const serviceId = conflict.serviceId === '' ? null : conflict.serviceId;
  const [round, setRound] = useState(0);
  const { slots, failure } = useFreeTimes(clinicId, serviceId, conflict.counselorId, zone, round);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const label = (slot: PlacedSlot) => startOf(slot.start, zone, locale);
  const unknownService = serviceId === null;

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const slot = slots?.find((item) => item.start === chosen);
    if (slot === undefined) {
      setProblem(t('schedule.move.choose'));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await callFunction('appointment-reschedule', { appointmentId: conflict.appointmentId, start: slot.start, counselorId: conflict.counselorId });
      onMoved(conflict, t('schedule.move.moved', { when: label(slot) }));
    } catch (error) {
      const taken = error instanceof FunctionsError && error.code === 'aborted';
      setProblem(taken ? t('schedule.move.taken') : t(errorMessageKey(error)));
      if (taken) {
        setChosen('');
        setRound((value) => value + 1);
      }
    } finally {
      setBusy(false);
    }
  };

  const name = conflict.name === '' ? t('schedule.conflicts.noName') : conflict.name;
  return (
    <BookingDialog title={t('schedule.move.title', { name })} description={<p>{t('schedule.move.lead', { days: MOVE_DAYS })}</p>} {...(busy ? {} : { onClose })}>
      {unknownService ? (
        <ErrorText>{t('schedule.move.noService')}</ErrorText>
      ) : failure !== null ? (
        <ErrorText>{t(errorMessageKey(failure))}</ErrorText>
      ) : slots === null ? (
        <p role="status" className="loading">
          {t('schedule.move.loading')}
        </p>
      ) : slots.length === 0 ? (
        <p role="status">{t('schedule.move.none', { days: MOVE_DAYS })}</p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <div className="staff-filter">
            <label htmlFor="schedule-move-time">{t('schedule.move.time')}</label>
            <select
              id="schedule-move-time"
              value={chosen}
              onChange={(event) => {
                setChosen(event.target.value);
              }}
            >
              <option value="">{t('schedule.move.pick')}</option>
              {slots.map((slot) => (
                <option key={slot.start} value={slot.start}>
                  {label(slot)}
                </option>
              ))}
            </select>
          </div>
          {problem !== null && <ErrorText>{problem}</ErrorText>}
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {t('schedule.move.confirm')}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={onClose}>
              {t('schedule.move.close')}
            </button>
          </div>
        </form>
      )}
      {(unknownService || slots?.length === 0 || failure !== null) && (
        <div className="actions">
          <button type="button" className="secondary" onClick={onClose}>
            {t('schedule.move.close')}
          </button>
        </div>
      )}
    </BookingDialog>
  );
}
