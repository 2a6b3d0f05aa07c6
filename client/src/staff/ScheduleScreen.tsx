/**
 * `/staff/schedule`: a counselor's weekly hours, dated exceptions and languages (a counselor:
 * their own; a clinic administrator: any counselor of the clinic, and the clinic's closed
 * days), read through `schedule-read` and saved through `schedule-update` /
 * `holidays-update` (docs/protocol.md "Clinic administration", "Schedules"). Times are the
 * clinic's wall times, and the screen says so. After a save, the bookings the new hours no
 * longer cover are listed with a link to each.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { staffRole } from '../auth/roles';
import { timeZoneName } from '../booking/format';
import { ErrorText } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import type { Locale } from '../i18n/locale';
import { todayIn } from '../intake/dates';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser, selectLocale } from '../store/selectors';
import { ConflictsList } from './schedule/ConflictsList';
import { ClosedDays, HolidaysPanel } from './schedule/HolidaysPanel';
import { ScheduleEditor } from './schedule/ScheduleEditor';
import { parseScheduleRead, type Conflict, type Schedule, type ScheduleRead } from './schedule/schedule';
import './staff.css';
import './schedule/schedule.css';

const nameOf = (schedule: Schedule, locale: Locale) => schedule.name[locale] || schedule.name.en || schedule.name.ja || schedule.counselorId;

function useScheduleRead(clinicId: string, counselorId: string | null) {
  const [read, setRead] = useState<ScheduleRead | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    callFunction('schedule-read', counselorId === null ? { clinicId } : { clinicId, counselorId }).then(
      (data) => {
        if (!live) return;
        const parsed = parseScheduleRead(data);
        if (parsed === null) setFailure(new Error('malformed reply'));
        else setRead(parsed);
      },
      (reason: unknown) => {
        if (live) setFailure(reason);
      },
    );
    return () => {
      live = false;
    };
  }, [clinicId, counselorId]);
  return { read, setRead, failure };
}

function Schedules({ clinicId, ownCounselorId, admin }: { clinicId: string; ownCounselorId: string | null; admin: boolean }) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const { read, setRead, failure } = useScheduleRead(clinicId, admin ? null : ownCounselorId);
  const [chosen, setChosen] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [conflicts, setConflicts] = useState<Conflict[]>([]);

  if (failure !== null) return <ErrorText>{t(errorMessageKey(failure))}</ErrorText>;
  if (read === null) {
    return (
      <p role="status" className="loading">
        {t('schedule.loading')}
      </p>
    );
  }
  const today = todayIn(read.timezone);
  const zoneName = timeZoneName(read.timezone, locale);
  const current = read.counselors.find((schedule) => schedule.counselorId === chosen) ?? read.counselors[0];
  const counselorName = (id: string) => {
    const found = read.counselors.find((schedule) => schedule.counselorId === id);
    return found === undefined ? id : nameOf(found, locale);
  };
  const saved = (schedule: Schedule, found: Conflict[]) => {
    setRead({ ...read, counselors: read.counselors.map((other) => (other.counselorId === schedule.counselorId ? schedule : other)) });
    setConflicts(found);
  };

  return (
    <div className="schedule">
      {admin && read.counselors.length > 0 && (
        <div className="staff-filter schedule-pick">
          <label htmlFor="schedule-counselor">{t('schedule.counselor')}</label>
          <select
            id="schedule-counselor"
            value={current?.counselorId ?? ''}
            disabled={dirty}
            aria-describedby={dirty ? 'schedule-pick-hint' : undefined}
            onChange={(event) => {
              setChosen(event.target.value);
              setConflicts([]);
            }}
          >
            {read.counselors.map((schedule) => (
              <option key={schedule.counselorId} value={schedule.counselorId}>
                {nameOf(schedule, locale)}
              </option>
            ))}
          </select>
          {dirty && (
            <p className="hint" id="schedule-pick-hint">
              {t('schedule.pickWhileDirty')}
            </p>
          )}
        </div>
      )}
      {current === undefined ? (
        <p>{t('schedule.noCounselors')}</p>
      ) : (
        <>
          {!admin && <p className="hint">{t('schedule.own', { name: nameOf(current, locale) })}</p>}
          <ScheduleEditor
            key={current.counselorId}
            clinicId={clinicId}
            schedule={current}
            today={today}
            zoneName={zoneName}
            locale={locale}
            onSaved={saved}
            onDirty={setDirty}
          />
        </>
      )}
      <ConflictsList
        clinicId={clinicId}
        conflicts={conflicts}
        zone={read.timezone}
        locale={locale}
        counselorName={counselorName}
        onMoved={(moved) => {
          setConflicts(conflicts.filter((conflict) => conflict.appointmentId !== moved.appointmentId));
        }}
      />
      {!admin && read.holidays !== null && <ClosedDays holidays={read.holidays} locale={locale} />}
      {admin && read.holidays !== null && (
        <HolidaysPanel
          clinicId={clinicId}
          timezone={read.timezone}
          today={today}
          locale={locale}
          holidays={read.holidays}
          onSaved={(holidays, found) => {
            setRead({ ...read, holidays });
            setConflicts(found);
          }}
        />
      )}
    </div>
  );
}

export default function ScheduleScreen() {
  const { t } = useTranslation('staff');
  const user = useAppStore(selectAuthUser);
  const role = staffRole(user?.role);
  const clinicId = user?.clinicId ?? null;
  const admin = role === 'clinic_admin';
  return (
    <Screen title={t('schedule.title')} lead={admin ? t('schedule.leadAdmin') : t('schedule.leadCounselor')}>
      {clinicId === null ? <ErrorText>{t('board.noClinic')}</ErrorText> : <Schedules key={clinicId} clinicId={clinicId} ownCounselorId={user?.counselorId ?? null} admin={admin} />}
    </Screen>
  );
}
