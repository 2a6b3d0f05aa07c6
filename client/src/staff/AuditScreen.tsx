/**
 * `/staff/audit` (clinic administrators): the clinic's audit log, newest first, read through
 * `staff-audit-read` (itself an audited read), with filters by appointment, days and action.
 * Live: the screen follows `clinics/{clinicId}/audit`, which only names the newest entry, and
 * reads the list again when it moves (docs/protocol.md "Live documents"). A counselor is told
 * plainly that the page is for clinic administrators.
 */
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STAFF_HOME, staffRole } from '../auth/roles';
import { timeZoneName } from '../booking/format';
import { ErrorText } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import type { Locale } from '../i18n/locale';
import { isRecord } from '../isRecord';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser, selectLocale } from '../store/selectors';
import {
  AUDIT_ACTIONS,
  auditPath,
  auditRequest,
  byAction,
  filtersProblem,
  latestIdOf,
  NO_FILTERS,
  parseAuditPage,
  type AuditEntry,
  type AuditFilters,
  type AuditPage,
} from './audit';
import { auditedChanges } from './identityProvider';
import { startOf } from './instants';
import { useClinicDocument } from './liveClinic';
import { changedSettings } from './services';
import { StaffTable } from './StaffTable';
import './staff.css';
import './audit.css';

const DEFAULT_ZONE = 'Asia/Tokyo';

/** The clinic's time zone from `clinic-read` (entries are shown in it), Tokyo until known. */
function useClinicZone(clinicId: string): string {
  const [zone, setZone] = useState(DEFAULT_ZONE);
  useEffect(() => {
    let live = true;
    callFunction('clinic-read', { id: clinicId }).then(
      (data) => {
        if (live && isRecord(data) && typeof data.timezone === 'string') setZone(data.timezone);
      },
      () => undefined, // the default zone stays, and says so on the screen
    );
    return () => {
      live = false;
    };
  }, [clinicId]);
  return zone;
}

/** An instant in the clinic's zone: "2025/03/03 9:05:12" / "Mar 3, 2025, 09:05:12". */
function when(iso: string, zone: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', hourCycle: 'h23', timeZone: zone }).format(date);
}

/** The entry's `detail` in words (nothing for an intake read, which has none). */
function useDetailWords() {
  const { t } = useTranslation('staff');
  const status = (value: unknown) => (typeof value === 'string' ? t(`status.${value}`, { defaultValue: value }) : '—');
  const moment = (value: unknown, zone: string, locale: Locale) => (typeof value === 'string' ? startOf(value, zone, locale) : '—');
  const role = (value: unknown) => (value === 'counselor' || value === 'clinic_admin' ? t(`team.roles.${value}`) : '—');
  const counselor = (value: unknown) => (typeof value === 'string' ? value : t('team.audit.none'));
  /** "+2 −1": what a schedule change added and removed (realtime/functions/schedule.py). */
  const counts = (value: unknown) =>
    isRecord(value) && typeof value.added === 'number' && typeof value.removed === 'number' ? t('audit.detail.counts', { added: value.added, removed: value.removed }) : '—';
  const listed = (value: unknown) => (Array.isArray(value) && value.length > 0 ? value.filter((item) => typeof item === 'string').join(t('audit.detail.separator')) : '—');
  /** A staff account's invitation or change: the address, then what changed (team/team.ts). */
  const staffDetail = (action: 'staff.invite' | 'staff.update', detail: Record<string, unknown>): string => {
    const email = typeof detail.email === 'string' ? detail.email : '';
    if (action === 'staff.invite') return t('team.audit.invite', { email, role: role(detail.role) });
    const changes = [
      isRecord(detail.role) ? t('team.audit.role', { from: role(detail.role.from), to: role(detail.role.to) }) : null,
      isRecord(detail.counselorId) ? t('team.audit.counselor', { from: counselor(detail.counselorId.from), to: counselor(detail.counselorId.to) }) : null,
      isRecord(detail.removed) ? t(detail.removed.to === true ? 'team.audit.removed' : 'team.audit.restored') : null,
    ].filter((part): part is string => part !== null);
    return t('team.audit.update', { email, changes: changes.join(t('team.audit.separator')) });
  };
  return (entry: AuditEntry, zone: string, locale: Locale): string => {
    const detail = entry.detail ?? {};
    switch (entry.action) {
      case 'appointment.status':
        return t('audit.detail.status', { from: status(detail.from), to: status(detail.to) });
      case 'appointment.cancel':
        return t(detail.refund === true ? 'audit.detail.cancelRefund' : 'audit.detail.cancel', { from: status(detail.from) });
      case 'appointment.reschedule':
        return t('audit.detail.reschedule', { from: moment(detail.from, zone, locale), to: moment(detail.to, zone, locale) });
      case 'mail.resend':
        return t('audit.detail.resendCounselor');
      case 'staff.invite':
      case 'staff.update':
        return staffDetail(entry.action, detail);
      case 'calendarFeed.rotate':
        return t('audit.detail.calendarFeed', { counselor: typeof detail.counselorId === 'string' ? detail.counselorId : '' });
      case 'service.update':
        return t('services.auditDetail', {
          service: typeof detail.serviceId === 'string' ? detail.serviceId : '',
          fields: changedSettings(detail)
            .map((setting) => t(`services.field.${setting}`))
            .join(t('audit.detail.separator')),
        });
      case 'providerCode.update': {
        const after = isRecord(detail.after) ? detail.after : {};
        const words = { code: typeof detail.code === 'string' ? detail.code : '', name: typeof after.name === 'string' ? after.name : '' };
        if (detail.before === null) return t('codes.auditAdded', words);
        return t('codes.auditChanged', { ...words, state: t(after.active === true ? 'codes.activeState' : 'codes.inactiveState') });
      }
      case 'schedule.update':
        return t('audit.detail.schedule', {
          counselor: typeof detail.counselorId === 'string' ? detail.counselorId : '',
          weekly: counts(detail.weekly),
          exceptions: counts(detail.exceptions),
        });
      case 'holidays.update':
        return t('audit.detail.holidays', { added: listed(detail.added), removed: listed(detail.removed) });
      case 'document.upload':
      case 'document.retire':
        return t(entry.action === 'document.upload' ? 'audit.detail.documentUpload' : 'audit.detail.documentRetire', {
          doc: typeof detail.docId === 'string' ? detail.docId : '',
          locale: typeof detail.locale === 'string' ? detail.locale : '',
          generation: typeof detail.generation === 'number' ? detail.generation : '',
        });
      case 'intake.export':
        return t('audit.detail.export', { resource: typeof detail.resource === 'string' ? detail.resource : '' });
      case 'audit.read': {
        const parts = [
          typeof detail.appointmentId === 'string' ? t('audit.detail.appointment', { id: detail.appointmentId }) : null,
          typeof detail.from === 'string' ? t('audit.detail.from', { day: detail.from }) : null,
          typeof detail.to === 'string' ? t('audit.detail.to', { day: detail.to }) : null,
        ].filter((part): part is string => part !== null);
        return parts.length === 0 ? t('audit.detail.noFilters') : t('audit.detail.filters', { filters: parts.join(t('audit.detail.separator')) });
      }
      case 'identityProvider.update': {
        const { fields, secret, enabled } = auditedChanges(detail);
        return [
          enabled === null ? null : t(enabled ? 'identity.audit.on' : 'identity.audit.off'),
          ...fields.filter((field) => field !== 'enabled').map((field) => t(`identity.audit.field.${field}`)),
          secret === null ? null : t(`identity.audit.secret.${secret}`),
        ]
          .filter((part): part is string => part !== null)
          .join(t('audit.detail.separator'));
      }
      case 'staff.oidcLink':
        return typeof detail.email === 'string' ? detail.email : '';
      default:
        return '';
    }
  };
}

/** A reply of `staff-audit-read` as shown: the entries, and which of them are new. */
interface Shown {
  page: AuditPage;
  /** Ids that were not in the previous list of the same filters (highlighted and announced). */
  fresh: ReadonlySet<number>;
  /** The call's input, and what the list was read for: that and the newest entry named. */
  request: string;
  readFor: string;
}

/**
 * The list as the server gives it for the applied filters, read again whenever the clinic's
 * audit document names a newer entry. The first read waits for the document (or its refusal),
 * so that nothing recorded between the read and the subscription is missed and the log is
 * not read twice on opening.
 */
function useAuditLog(clinicId: string, filters: AuditFilters) {
  const { document, error: liveError } = useClinicDocument(auditPath(clinicId));
  const followed = document !== undefined || liveError !== undefined;
  const latest = latestIdOf(document?.data);
  const request = JSON.stringify(auditRequest(clinicId, filters));
  const readFor = `${request} ${String(latest)}`;
  const [shown, setShown] = useState<Shown | null>(null);
  const [failure, setFailure] = useState<{ reason: unknown; readFor: string } | null>(null);
  useEffect(() => {
    if (!followed) return;
    let live = true;
    callFunction('staff-audit-read', JSON.parse(request) as Record<string, string>).then(
      (data) => {
        if (!live) return;
        const page = parseAuditPage(data);
        if (page === null) {
          setFailure({ reason: new Error('malformed reply'), readFor });
          return;
        }
        setFailure(null);
        setShown((before) => {
          const sameList = before !== null && before.request === request;
          const seen = new Set(sameList ? before.page.entries.map((entry) => entry.id) : []);
          const fresh = new Set(sameList ? page.entries.map((entry) => entry.id).filter((id) => !seen.has(id)) : []);
          return { page, fresh, request, readFor };
        });
      },
      (reason: unknown) => {
        if (live) setFailure({ reason, readFor });
      },
    );
    return () => {
      live = false;
    };
  }, [request, readFor, followed]);
  const answered = shown?.readFor === readFor || failure?.readFor === readFor;
  return { shown, failure: failure?.reason ?? null, reading: followed && !answered, live: document !== undefined };
}

function FiltersForm({ applied, onApply }: { applied: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const { t } = useTranslation('staff');
  const [draft, setDraft] = useState<AuditFilters>(applied);
  const [problem, setProblem] = useState<'appointmentId' | 'to' | null>(null);
  const set = (key: keyof AuditFilters) => (value: string) => {
    setDraft((held) => ({ ...held, [key]: value }));
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const found = filtersProblem(draft);
    setProblem(found);
    if (found === null) onApply({ ...draft, appointmentId: draft.appointmentId.trim() });
  };
  const field = (key: 'appointmentId' | 'from' | 'to', type: 'text' | 'date') => (
    <div className="staff-filter">
      <label htmlFor={`audit-${key}`}>{t(`audit.filter.${key}`)}</label>
      <input
        id={`audit-${key}`}
        type={type}
        value={draft[key]}
        maxLength={type === 'text' ? 64 : undefined}
        spellCheck={false}
        autoCapitalize="off"
        aria-invalid={problem === key}
        aria-describedby={problem === key ? `audit-${key}-error` : undefined}
        onChange={(event) => {
          set(key)(event.target.value);
        }}
      />
      {problem !== null && problem === key && <ErrorText id={`audit-${key}-error`}>{t(`audit.problem.${problem}`)}</ErrorText>}
    </div>
  );
  return (
    <form className="staff-filters staff-audit-filters" noValidate onSubmit={submit} aria-labelledby="audit-filters-title">
      <h2 id="audit-filters-title" className="staff-audit-filters-title">
        {t('audit.filter.title')}
      </h2>
      {field('appointmentId', 'text')}
      {field('from', 'date')}
      {field('to', 'date')}
      <div className="staff-filter">
        <label htmlFor="audit-action">{t('audit.filter.action')}</label>
        <select
          id="audit-action"
          value={draft.action}
          onChange={(event) => {
            set('action')(event.target.value);
          }}
        >
          <option value="">{t('board.all')}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {t(`audit.actions.${action}`, { defaultValue: action })}
            </option>
          ))}
        </select>
      </div>
      <div className="actions staff-audit-buttons">
        <button type="submit" className="primary">
          {t('audit.filter.apply')}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setDraft(NO_FILTERS);
            setProblem(null);
            onApply(NO_FILTERS);
          }}
        >
          {t('audit.filter.clear')}
        </button>
      </div>
    </form>
  );
}

function AuditLog({ clinicId }: { clinicId: string }) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const zone = useClinicZone(clinicId);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const { shown: read, failure, reading, live } = useAuditLog(clinicId, filters);
  const page = read?.page ?? null;
  const fresh = read?.fresh ?? new Set<number>();
  const words = useDetailWords();
  const shown = page === null ? [] : byAction(page.entries, filters.action);
  const announcement = fresh.size === 0 ? '' : t('audit.announceNew', { count: fresh.size });

  return (
    <div className="staff-audit">
      <p className="hint">
        {t('audit.zone', { zone: timeZoneName(zone, locale) })} {live && t('audit.live')}
      </p>
      <div aria-live="polite" aria-atomic="true" className="visually-hidden" data-testid="audit-announcer">
        {announcement}
      </div>
      <FiltersForm applied={filters} onApply={setFilters} />
      {failure !== null && <ErrorText>{t(errorMessageKey(failure))}</ErrorText>}
      {page === null && failure === null && (
        <p role="status" className="loading">
          {t('audit.loading')}
        </p>
      )}
      {page !== null && (
        <>
          <p role="status" className="hint">
            {reading ? t('audit.refreshing') : t('audit.count', { count: shown.length })}
          </p>
          {shown.length === 0 ? (
            <p>{t('audit.empty')}</p>
          ) : (
            <StaffTable
              labelId="audit-caption"
              caption={t('audit.caption')}
              columns={[
                t('audit.column.when'),
                t('audit.column.who'),
                t('audit.column.action'),
                t('audit.column.appointment'),
                t('audit.column.detail'),
                t('audit.column.address'),
              ]}
            >
              {shown.map((entry) => (
                <tr key={entry.id} data-new={fresh.has(entry.id) || undefined} data-action={entry.action}>
                  <td>
                    <time dateTime={entry.at}>{when(entry.at, zone, locale)}</time>
                  </td>
                  <td>
                    <span className="staff-audit-email">{entry.email}</span>
                    <span className="staff-booking-detail">{t(`audit.roles.${entry.role}`, { defaultValue: entry.role })}</span>
                  </td>
                  <td>{t(`audit.actions.${entry.action}`, { defaultValue: entry.action })}</td>
                  <td>
                    {entry.appointmentId === null ? (
                      <span className="staff-booking-detail">{t('audit.noAppointment')}</span>
                    ) : (
                      <Link to={`/staff/appointments/${encodeURIComponent(entry.appointmentId)}`}>{entry.appointmentId}</Link>
                    )}
                  </td>
                  <td>{words(entry, zone, locale)}</td>
                  <td>{entry.clientAddress ?? t('audit.noAddress')}</td>
                </tr>
              ))}
            </StaffTable>
          )}
          {page.more && <p className="hint staff-audit-more">{t('audit.more')}</p>}
        </>
      )}
    </div>
  );
}

export default function AuditScreen() {
  const { t } = useTranslation('staff');
  const user = useAppStore(selectAuthUser);
  const clinicId = user?.clinicId ?? null;
  if (staffRole(user?.role) !== 'clinic_admin') {
    return (
      <Screen title={t('audit.adminsOnlyTitle')} lead={t('audit.adminsOnly')}>
        <p>
          <Link to={STAFF_HOME}>{t('audit.toBoard')}</Link>
        </p>
      </Screen>
    );
  }
  return (
    <Screen title={t('audit.title')} lead={t('audit.lead')}>
      {clinicId === null ? <ErrorText>{t('board.noClinic')}</ErrorText> : <AuditLog key={clinicId} clinicId={clinicId} />}
    </Screen>
  );
}
