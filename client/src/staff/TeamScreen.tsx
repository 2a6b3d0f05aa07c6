/**
 * `/staff/team` (clinic administrators): the clinic's staff accounts (address, role and
 * counselor, second factor set up or not, invited when, removed), an invitation form, and per
 * member a change of role or removal / restoring, each confirmed in a dialog (docs/product.md
 * "Staff accounts"). The list is read again after every change. A counselor is told plainly
 * that the page is for clinic administrators.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STAFF_HOME, staffRole } from '../auth/roles';
import { ErrorText } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import type { Locale } from '../i18n/locale';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser, selectLocale } from '../store/selectors';
import { InviteForm } from './team/InviteForm';
import { AccessDialog, RoleDialog } from './team/MemberDialogs';
import { counselorName, parseTeam, type Member, type Team } from './team/team';
import { StaffTable } from './StaffTable';
import './staff.css';
import './team/team.css';

/** A day in the viewer's zone: "2025/03/03" / "Mar 3, 2025". */
function day(iso: string | null, locale: Locale): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date);
}

function useTeam(clinicId: string) {
  const [team, setTeam] = useState<Team | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let live = true;
    callFunction('staff-list', { clinicId }).then(
      (data) => {
        if (!live) return;
        const parsed = parseTeam(data);
        setTeam(parsed);
        setFailure(parsed === null ? new Error('malformed reply') : null);
      },
      (reason: unknown) => {
        if (live) setFailure(reason);
      },
    );
    return () => {
      live = false;
    };
  }, [clinicId, reads]);
  return {
    team,
    failure,
    reload: () => {
      setReads((count) => count + 1);
    },
  };
}

type Open = { kind: 'role' | 'access'; member: Member } | null;

function TeamList({ clinicId }: { clinicId: string }) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const { team, failure, reload } = useTeam(clinicId);
  const [open, setOpen] = useState<Open>(null);
  const [said, setSaid] = useState('');
  const counselorOf = (member: Member) => {
    const found = team?.counselors.find((c) => c.counselorId === member.counselorId);
    return found === undefined ? (member.counselorId ?? '') : counselorName(found, locale);
  };
  const done = (key: 'team.changed' | 'team.removed' | 'team.restored') => (member: Member) => {
    setOpen(null);
    setSaid(t(key, { email: member.email }));
    reload();
  };

  return (
    <div className="staff-team">
      <div aria-live="polite" aria-atomic="true" className="visually-hidden">
        {said}
      </div>
      {failure !== null && <ErrorText>{t(errorMessageKey(failure))}</ErrorText>}
      {team === null && failure === null && (
        <p role="status" className="loading">
          {t('team.loading')}
        </p>
      )}
      {team !== null && (
        <>
          <StaffTable
            labelId="team-caption"
            caption={t('team.caption', { count: team.staff.length })}
            className="staff-team-table"
            columns={[
              t('team.column.email'),
              t('team.column.role'),
              t('team.column.secondFactor'),
              t('team.column.invited'),
              t('team.column.access'),
              t('team.column.actions'),
            ]}
          >
            {team.staff.map((member) => (
              <tr key={member.staffId} data-removed={member.removedAt !== null || undefined}>
                <td className="staff-audit-email">{member.email}</td>
                <td>
                  <span>{t(`team.roles.${member.role}`)}</span>
                  {member.role === 'counselor' && <span className="staff-booking-detail">{counselorOf(member)}</span>}
                </td>
                <td>{member.secondFactor ? t('team.secondFactor.yes') : t('team.secondFactor.no')}</td>
                <td>{day(member.invitedAt, locale)}</td>
                <td>{member.removedAt === null ? t('team.access.active') : t('team.access.removed', { day: day(member.removedAt, locale) })}</td>
                <td>
                  <div className="staff-team-actions">
                  {member.removedAt === null && (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={t('team.changeRoleOf', { email: member.email })}
                      onClick={() => {
                        setOpen({ kind: 'role', member });
                      }}
                    >
                      {t('team.changeRole')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="secondary"
                    aria-label={t(member.removedAt === null ? 'team.removeOf' : 'team.restoreOf', { email: member.email })}
                    onClick={() => {
                      setOpen({ kind: 'access', member });
                    }}
                  >
                    {t(member.removedAt === null ? 'team.remove' : 'team.restore')}
                  </button>
                  </div>
                </td>
              </tr>
            ))}
          </StaffTable>
          <InviteForm clinicId={clinicId} counselors={team.counselors} onInvited={reload} />
        </>
      )}
      {open?.kind === 'role' && team !== null && (
        <RoleDialog
          clinicId={clinicId}
          member={open.member}
          counselors={team.counselors}
          onDone={done('team.changed')}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
      {open?.kind === 'access' && (
        <AccessDialog
          clinicId={clinicId}
          member={open.member}
          onDone={done(open.member.removedAt === null ? 'team.removed' : 'team.restored')}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
    </div>
  );
}

export default function TeamScreen() {
  const { t } = useTranslation('staff');
  const user = useAppStore(selectAuthUser);
  const clinicId = user?.clinicId ?? null;
  if (staffRole(user?.role) !== 'clinic_admin') {
    return (
      <Screen title={t('team.adminsOnlyTitle')} lead={t('team.adminsOnly')}>
        <p>
          <Link to={STAFF_HOME}>{t('audit.toBoard')}</Link>
        </p>
      </Screen>
    );
  }
  return (
    <Screen title={t('team.title')} lead={t('team.lead')}>
      {clinicId === null ? <ErrorText>{t('board.noClinic')}</ErrorText> : <TeamList key={clinicId} clinicId={clinicId} />}
    </Screen>
  );
}
