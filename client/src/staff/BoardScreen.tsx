/**
 * `/staff`: the clinic's bookings board. Follows the bookings window
 * `clinics/{clinicId}/bookings/{today}/{today + BOARD_DAYS - 1}` (its changes pushed one by one)
 * and `clinics/{clinicId}/presence` live; shows today (the clinic's day) and the coming days by
 * day then counselor, each booking with its time in the clinic's zone, service, counselor,
 * status, payment, and a hold's countdown; filters by counselor (a counselor's own by default),
 * service and status; a booking that appears is highlighted for a moment and announced
 * politely, and so is a cancellation. Who is online and on which step, beside.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SECOND_FACTOR_PATH, staffRole } from '../auth/roles';
import { counselorName, fullDay, timeZoneName } from '../booking/format';
import { formatMmSs, secondsLeft } from '../booking/hold';
import { useNow } from '../booking/useNow';
import { ErrorText } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import type { Locale } from '../i18n/locale';
import { addDays, todayIn } from '../intake/dates';
import { definition } from '../intake/definition';
import { isRecord } from '../isRecord';
import { callFunction, errorMessageKey } from '../realtime';
import { FunctionsError } from '../realtime/errors';
import { useAppStore } from '../store';
import { RefundLine } from '../booking/RefundState';
import { selectAuthUser, selectLocale } from '../store/selectors';
import {
  boardChanges,
  boardStatus,
  filterOptions,
  groupBoard,
  isLiveHold,
  parseBookings,
  parsePresence,
  type BoardBooking,
  type BoardChange,
  type BoardFilters,
} from './board';
import { bookingsWindowPath, liveClinic, presencePath, useClinicDocument } from './liveClinic';
import CalendarFeed from './CalendarFeed';
import './staff.css';

/** How many days the board follows: today and the 27 after it (within MAX_WINDOW_DAYS). */
export const BOARD_DAYS = 28;
/** How long a booking that just appeared stays highlighted. */
export const HIGHLIGHT_MS = 6000;
const DEFAULT_ZONE = 'Asia/Tokyo';

type Names = Record<string, unknown>;

function localized(value: unknown, locale: Locale): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (isRecord(value)) {
    const text = value[locale];
    if (typeof text === 'string' && text !== '') return text;
  }
  return null;
}

/** `clinic-read` (timezone, counselors), best effort. */
function useClinic(clinicId: string) {
  const [clinic, setClinic] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    let live = true;
    callFunction('clinic-read', { id: clinicId }).then(
      (data) => {
        if (live && isRecord(data)) setClinic(data);
      },
      () => undefined, // names fall back to ids
    );
    return () => {
      live = false;
    };
  }, [clinicId]);
  return clinic;
}

/** `service-read` of each service seen: names, best effort. */
function useServices(clinicId: string, serviceIds: string[]) {
  const [services, setServices] = useState<Names>({});
  const wanted = serviceIds.join(' ');
  useEffect(() => {
    let live = true;
    for (const id of wanted === '' ? [] : wanted.split(' ')) {
      callFunction('service-read', { id, clinicId }).then(
        (data) => {
          if (live && isRecord(data)) setServices((held) => ({ ...held, [id]: data.name }));
        },
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [clinicId, wanted]);
  return services;
}

/** Announcements and highlights of what a new bookings snapshot brought. */
function useBoardChanges(path: string) {
  const [changes, setChanges] = useState<BoardChange[]>([]);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const timers: number[] = [];
    const off = liveClinic.store.subscribe((state, previous) => {
      const next = state.documents[path];
      const before = previous.documents[path];
      if (next === undefined || next === before) return;
      const found = boardChanges(before === undefined ? null : parseBookings(before.data), parseBookings(next.data), Date.now());
      if (found.length === 0) return;
      setChanges(found);
      const ids = found.filter((c) => c.kind === 'new').map((c) => c.booking.appointmentId);
      if (ids.length === 0) return;
      setHighlighted((held) => new Set([...held, ...ids]));
      timers.push(
        window.setTimeout(() => {
          setHighlighted((held) => new Set([...held].filter((id) => !ids.includes(id))));
        }, HIGHLIGHT_MS),
      );
    });
    return () => {
      off();
      for (const timer of timers) window.clearTimeout(timer);
    };
  }, [path]);
  return { changes, highlighted };
}

function FilterSelect({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('staff');
  return (
    <div className="staff-filter">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      >
        <option value="">{t('board.all')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Board({ clinicId, counselorId }: { clinicId: string; counselorId: string | null }) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const now = useNow(1000);
  const clinic = useClinic(clinicId);
  const zone = (typeof clinic?.timezone === 'string' ? clinic.timezone : null) ?? DEFAULT_ZONE;
  const today = todayIn(zone, new Date(now));
  // The window moves on at the clinic's midnight (a new path: a new snapshot).
  const path = bookingsWindowPath(clinicId, today, addDays(today, BOARD_DAYS - 1));
  const { document, error } = useClinicDocument(path);
  const { document: presenceDocument } = useClinicDocument(presencePath(clinicId));
  const bookings = useMemo(() => parseBookings(document?.data), [document]);
  const online = useMemo(() => parsePresence(presenceDocument?.data), [presenceDocument]);
  const options = useMemo(() => filterOptions(bookings), [bookings]);
  const services = useServices(clinicId, options.serviceIds);
  const { changes, highlighted } = useBoardChanges(path);
  const [filters, setFilters] = useState<BoardFilters>({ counselorId: counselorId ?? '', serviceId: '', status: '' });
  const days = groupBoard(bookings, today, filters, now);

  const counselorLabel = (id: string | null) =>
    id === null ? t('board.unassigned') : counselorName(id, locale, clinic, (value) => t('board.counselorFallback', { id: value }));
  const serviceLabel = (id: string) => localized(services[id], locale) ?? id;
  const statusLabel = (status: string) => t(`status.${status}`, { defaultValue: status });
  const describe = (booking: BoardBooking) => ({
    service: serviceLabel(booking.serviceId),
    day: booking.date === null ? '' : fullDay(booking.date, locale),
    time: booking.time ?? '',
    counselor: counselorLabel(booking.counselorId),
  });
  const announcement = changes
    .map((change) => t(change.kind === 'new' ? 'board.announceNew' : 'board.announceCancelled', describe(change.booking)))
    .join(' ');

  const counselorIds = counselorId !== null && !options.counselorIds.includes(counselorId) ? [counselorId, ...options.counselorIds] : options.counselorIds;
  const setFilter = (key: keyof BoardFilters) => (value: string) => {
    setFilters((held) => ({ ...held, [key]: value }));
  };

  const secondFactorNeeded = error?.code === 'unauthenticated' && isRecord(error.details) && error.details.secondFactor !== undefined;

  return (
    <div className="staff-board">
      <p className="hint">{t('board.zone', { zone: timeZoneName(zone, locale) })}</p>
      <div aria-live="polite" aria-atomic="true" className="visually-hidden" data-testid="board-announcer">
        {announcement}
      </div>
      <fieldset className="staff-filters">
        <legend>{t('board.filters')}</legend>
        <FilterSelect
          id="board-counselor"
          label={t('board.counselor')}
          value={filters.counselorId}
          options={counselorIds.map((id) => ({ value: id, label: counselorLabel(id) }))}
          onChange={setFilter('counselorId')}
        />
        <FilterSelect
          id="board-service"
          label={t('board.service')}
          value={filters.serviceId}
          options={options.serviceIds.map((id) => ({ value: id, label: serviceLabel(id) }))}
          onChange={setFilter('serviceId')}
        />
        <FilterSelect
          id="board-status"
          label={t('board.status')}
          value={filters.status}
          options={['hold', 'pending_payment', 'confirmed', 'completed', 'no_show', 'cancelled', ...options.statuses]
            .filter((status, i, all) => all.indexOf(status) === i)
            .map((status) => ({ value: status, label: statusLabel(status) }))}
          onChange={setFilter('status')}
        />
      </fieldset>
      <div className="staff-columns">
        <div className="staff-days">
          {error !== undefined &&
            (secondFactorNeeded ? (
              <>
                <ErrorText>{t('board.secondFactorNeeded')}</ErrorText>
                <p>
                  <Link to={SECOND_FACTOR_PATH}>{t('board.toSecondFactor')}</Link>
                </p>
              </>
            ) : (
              <ErrorText>
                {t('board.refused')} {t(errorMessageKey(new FunctionsError(error.code, error.code)))}
              </ErrorText>
            ))}
          {error === undefined && document === undefined && (
            <p role="status" className="loading">
              {t('board.loading')}
            </p>
          )}
          {document !== undefined && days.length === 0 && <p>{t('board.empty')}</p>}
          {days.map((day) => {
            const count = day.counselors.reduce((sum, group) => sum + group.bookings.length, 0);
            return (
              <section key={day.date} className="staff-day" aria-labelledby={`day-${day.date}`}>
                <h2 id={`day-${day.date}`}>
                  {fullDay(day.date, locale)}
                  {day.date === today && <span className="staff-today"> · {t('board.today')}</span>}
                  <span className="staff-count"> · {t('board.count', { count })}</span>
                </h2>
                <div className="staff-counselors">
                  {day.counselors.map((group) => (
                    <section key={group.counselorId ?? ''} className="staff-counselor" aria-labelledby={`day-${day.date}-${group.counselorId ?? 'none'}`}>
                      <h3 id={`day-${day.date}-${group.counselorId ?? 'none'}`}>{counselorLabel(group.counselorId)}</h3>
                      <ul className="staff-bookings">
                        {group.bookings.map((booking) => {
                          const status = boardStatus(booking);
                          const isNew = highlighted.has(booking.appointmentId);
                          return (
                            <li key={booking.appointmentId} className="staff-booking" data-new={isNew || undefined} data-status={status}>
                              <Link to={`/staff/appointments/${encodeURIComponent(booking.appointmentId)}`} className="staff-booking-link">
                                <span className="staff-booking-time">{booking.time}</span>{' '}
                                <span className="staff-booking-service">{serviceLabel(booking.serviceId)}</span>
                              </Link>
                              {isNew && <span className="staff-badge staff-badge-new">{t('board.new')}</span>}
                              <span className="staff-badge" data-status={status}>
                                {statusLabel(status)}
                              </span>
                              <span className="staff-booking-detail">
                                {booking.refund !== null ? (
                                  <RefundLine view={booking.refund} />
                                ) : booking.payment === null ? (
                                  t('board.noPayment')
                                ) : (
                                  t('board.payment', { state: t(`paymentState.${booking.payment}`, { defaultValue: booking.payment }) })
                                )}
                              </span>
                              <span className="staff-booking-detail">{counselorLabel(booking.counselorId)}</span>
                              {isLiveHold(booking, now) && booking.holdExpiresAt !== null && (
                                <span className="staff-booking-detail staff-hold">
                                  {t('board.holdLeft', { time: formatMmSs(secondsLeft(booking.holdExpiresAt, now)) })}
                                </span>
                              )}
                            </li>
                          );
                        })}
                      </ul>
                    </section>
                  ))}
                </div>
              </section>
            );
          })}
        </div>
        <aside className="staff-online" aria-labelledby="online-title">
          <h2 id="online-title">{t('online.title')}</h2>
          {online.length === 0 ? (
            <p>{t('online.empty')}</p>
          ) : (
            <ul>
              {online.map((entry) => (
                <li key={entry.appointmentId}>
                  <Link to={`/staff/appointments/${encodeURIComponent(entry.appointmentId)}`}>
                    {t('online.entry', { id: entry.appointmentId })}
                  </Link>
                  {entry.step !== null && <span className="staff-booking-detail">{t('online.step', { step: stepTitle(entry.step, locale) })}</span>}
                  {entry.since !== null && <span className="staff-booking-detail">{t('online.since', { time: clock(entry.since, zone, locale) })}</span>}
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>
    </div>
  );
}

/** A step id of `activity` as the questionnaire names it ("family" -> "Family history"), else the id. */
function stepTitle(step: string, locale: Locale): string {
  const found = definition.steps.find((s) => s.id === step);
  return found ? (localized(found.title, locale) ?? step) : step;
}

/** An instant's wall time in the clinic's zone, "14:05". */
function clock(iso: string, zone: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(date);
}

export default function BoardScreen() {
  const { t } = useTranslation('staff');
  const user = useAppStore(selectAuthUser);
  const clinicId = user?.clinicId ?? null;
  const counselorId = staffRole(user?.role) === 'counselor' ? (user?.counselorId ?? null) : null;
  return (
    <Screen title={t('board.title')} lead={t('board.lead')}>
      {clinicId === null ? <ErrorText>{t('board.noClinic')}</ErrorText> : <Board key={clinicId} clinicId={clinicId} counselorId={counselorId} />}
      <CalendarFeed />
    </Screen>
  );
}
