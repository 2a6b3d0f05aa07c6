/**
 * The bookings a saved change no longer covers: they stay booked; each can be moved to
 * another free time of its counselor (MoveDialog) and links to its appointment page, where
 * staff cancel it as the clinic. Times in the clinic's zone.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Locale } from '../../i18n/locale';
import { clockOf, startOf } from '../instants';
import { MoveDialog } from './MoveDialog';
import type { Conflict } from './schedule';
import { StaffTable } from '../StaffTable';

interface Props {
  clinicId: string;
  conflicts: Conflict[];
  zone: string;
  locale: Locale;
  counselorName: (id: string) => string;
  onMoved: (conflict: Conflict) => void;
}

export function ConflictsList({ clinicId, conflicts, zone, locale, counselorName, onMoved }: Props) {
  const { t } = useTranslation('staff');
  const [moving, setMoving] = useState<Conflict | null>(null);
  const [said, setSaid] = useState('');
  if (conflicts.length === 0) {
    return (
      <p role="status" className="hint">
        {said}
      </p>
    );
  }
  return (
    <section className="schedule-section schedule-conflicts" aria-labelledby="schedule-conflicts-title">
      <h2 id="schedule-conflicts-title">{t('schedule.conflicts.title', { count: conflicts.length })}</h2>
      <p>{t('schedule.conflicts.lead')}</p>
      <p role="status" className="hint">
        {said}
      </p>
      <StaffTable
        labelId="schedule-conflicts-title"
        columns={[
          t('schedule.conflicts.when'),
          t('schedule.conflicts.person'),
          t('schedule.conflicts.counselor'),
          t('schedule.conflicts.status'),
          t('schedule.conflicts.action'),
        ]}
      >
        {conflicts.map((conflict) => {
          const name = conflict.name === '' ? t('schedule.conflicts.noName') : conflict.name;
          // A conflict in `draft` is a live hold (docs/protocol.md "Schedules"): shown as one.
          const status = conflict.status === 'draft' ? 'hold' : conflict.status;
          return (
            <tr key={conflict.appointmentId}>
              <td>
                <time dateTime={conflict.start}>{startOf(conflict.start, zone, locale)}</time>–{clockOf(conflict.end, zone, locale)}
              </td>
              <td>{name}</td>
              <td>{counselorName(conflict.counselorId)}</td>
              <td>{t(`status.${status}`, { defaultValue: status })}</td>
              <td className="schedule-conflict-actions">
                <button
                  type="button"
                  className="secondary"
                  onClick={() => {
                    setMoving(conflict);
                  }}
                >
                  {t('schedule.move.button', { name })}
                </button>{' '}
                <Link to={`/staff/appointments/${encodeURIComponent(conflict.appointmentId)}`}>{t('schedule.conflicts.open', { name })}</Link>
              </td>
            </tr>
          );
        })}
      </StaffTable>
      {moving !== null && (
        <MoveDialog
          clinicId={clinicId}
          conflict={moving}
          zone={zone}
          locale={locale}
          onMoved={(moved, words) => {
            setMoving(null);
            setSaid(words);
            onMoved(moved);
          }}
          onClose={() => {
            setMoving(null);
          }}
        />
      )}
    </section>
  );
}
