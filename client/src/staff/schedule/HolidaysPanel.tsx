/**
 * The clinic's closed days (clinic administrators): no counselor's hours count on them. The
 * list from today, a day added or removed by hand and saved with "Save closed days", and the
 * one-click import of the country's public holidays for a year (`holidays-suggest` shows what
 * would be added; "Add and save" saves through `holidays-update`). A stale version is
 * answered with the stored list, and the change that was not saved stays offered to redo.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fullDay } from '../../booking/format';
import { ErrorText } from '../../components/FieldParts';
import type { Locale } from '../../i18n/locale';
import { isIsoDate } from '../../intake/dates';
import { isRecord } from '../../isRecord';
import { callFunction, errorMessageKey } from '../../realtime';
import { FieldError } from './FieldError';
import { errorsUnder, fieldErrors, itemProblems, mergeHolidays, parseConflicts, parseDays, parseHolidays, sortHolidays, staleCurrent, type Conflict, type Holiday, type Holidays, type Refused } from './schedule';

interface Props {
  clinicId: string;
  timezone: string;
  today: string;
  locale: Locale;
  holidays: Holidays;
  onSaved: (holidays: Holidays, conflicts: Conflict[]) => void;
}

/** The country whose holidays the server offers (docs/protocol.md: Japan for Asia/Tokyo). */
const countryOf = (timezone: string): 'japan' | 'clinic' => (timezone === 'Asia/Tokyo' ? 'japan' : 'clinic');

/** The reply's country code (`JP`) in the person's language: "Japan" / "日本". */
function countryName(code: unknown, locale: Locale): string {
  if (typeof code !== 'string' || !/^[A-Z]{2}$/.test(code)) return '';
  return new Intl.DisplayNames(locale, { type: 'region' }).of(code) ?? code;
}

export function HolidaysPanel({ clinicId, timezone, today, locale, holidays, onSaved }: Props) {
  const { t } = useTranslation(['staff', 'errors']);
  const [days, setDays] = useState<Holiday[]>(holidays.days);
  const [base, setBase] = useState<Holidays>(holidays);
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [dateProblem, setDateProblem] = useState(false);
  const thisYear = Number(today.slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const [suggested, setSuggested] = useState<{ days: Holiday[]; country: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused>({});
  const [lost, setLost] = useState<Holiday[] | null>(null);
  const [said, setSaid] = useState('');
  const dirty = JSON.stringify(days) !== JSON.stringify(base.days);
  const country = countryOf(timezone);

  const save = async (next: Holiday[]) => {
    setBusy(true);
    setFailure(null);
    setRefused({});
    setSaid('');
    try {
      const reply = await callFunction('holidays-update', { clinicId, version: base.version, days: next });
      const data = isRecord(reply) ? reply : {};
      const saved = parseHolidays(data.holidays) ?? { version: base.version + 1, days: next };
      setBase(saved);
      setDays(saved.days);
      setSuggested(null);
      setLost(null);
      setSaid(t('schedule.holidays.saved', { count: saved.days.length }));
      onSaved(saved, parseConflicts(data.conflicts));
    } catch (error) {
      const current = parseHolidays(staleCurrent(error));
      if (current !== null) {
        setLost(next);
        setBase(current);
        setDays(current.days);
        setFailure(t('schedule.holidays.stale'));
      } else {
        const fields = fieldErrors(error);
        setRefused(fields);
        setFailure(Object.keys(fields).length > 0 ? t('schedule.refused.summary') : t(errorMessageKey(error)));
      }
    } finally {
      setBusy(false);
    }
  };

  const suggest = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const reply = await callFunction('holidays-suggest', { clinicId, year, locale });
      const data = isRecord(reply) ? reply : {};
      const known = new Set(days.map((day) => day.date));
      const fresh = parseDays(data.days).filter((day) => day.date >= today && !known.has(day.date));
      setSuggested({ days: fresh, country: countryName(data.country, locale) });
    } catch (error) {
      setFailure(t(errorMessageKey(error)));
    } finally {
      setBusy(false);
    }
  };

  const refusedOf = (index: number) => itemProblems(errorsUnder(refused, 'days'), index);

  return (
    <section className="schedule-section" aria-labelledby="schedule-holidays-title">
      <h2 id="schedule-holidays-title">{t('schedule.holidays.title')}</h2>
      <p className="hint">{t('schedule.holidays.lead')}</p>
      {days.length === 0 ? (
        <p>{t('schedule.holidays.none')}</p>
      ) : (
        <ul className="schedule-list">
          {days.map((day, index) => (
            <li key={day.date} data-refused={refusedOf(index).length > 0 || undefined}>
              <span>
                {fullDay(day.date, locale)} {day.name}
              </span>
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDays(days.filter((other) => other.date !== day.date));
                }}
              >
                {t('schedule.holidays.remove', { day: fullDay(day.date, locale) })}
              </button>
              {refusedOf(index).map(([path, problem]) => (
                <FieldError key={path} problem={problem} subject="holiday" />
              ))}
            </li>
          ))}
        </ul>
      )}
      <div className="staff-filters">
        <div className="staff-filter">
          <label htmlFor="schedule-holiday-date">{t('schedule.holidays.date')}</label>
          <input id="schedule-holiday-date" type="date" min={today} value={date} aria-invalid={dateProblem} aria-describedby={dateProblem ? 'schedule-holiday-problem' : undefined} onChange={(event) => { setDate(event.target.value); }} />
        </div>
        <div className="staff-filter">
          <label htmlFor="schedule-holiday-name">{t('schedule.holidays.name')}</label>
          <input id="schedule-holiday-name" type="text" maxLength={100} value={name} onChange={(event) => { setName(event.target.value); }} />
        </div>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDateProblem(!isIsoDate(date));
              if (!isIsoDate(date)) return;
              setDays(mergeHolidays(days, [{ date, name: name.trim() === '' ? t('schedule.holidays.defaultName') : name.trim() }]));
              setDate('');
              setName('');
            }}
          >
            {t('schedule.holidays.addDay')}
          </button>
        </div>
        {dateProblem && <ErrorText id="schedule-holiday-problem">{t('schedule.exceptions.problem.date')}</ErrorText>}
      </div>
      <div className="actions">
        <button type="button" className="primary" disabled={!dirty || busy} onClick={() => void save(days)}>
          {t('schedule.holidays.save')}
        </button>
      </div>
      <div className="schedule-import">
        <h3 className="schedule-form-title">{t('schedule.holidays.importTitle')}</h3>
        <div className="staff-filter">
          <label htmlFor="schedule-holiday-year">{t('schedule.holidays.year')}</label>
          <select id="schedule-holiday-year" value={year} onChange={(event) => { setYear(Number(event.target.value)); setSuggested(null); }}>
            {[thisYear, thisYear + 1].map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <button type="button" className="secondary" disabled={busy} onClick={() => void suggest()}>
            {t(`schedule.holidays.import.${country}`, { year })}
          </button>
        </div>
        {suggested !== null &&
          (suggested.days.length === 0 ? (
            <p role="status">{t('schedule.holidays.nothingNew', { year })}</p>
          ) : (
            <div className="schedule-suggested">
              <p role="status">{t('schedule.holidays.willAddFrom', { count: suggested.days.length, year, country: suggested.country })}</p>
              <ul className="schedule-list">
                {suggested.days.map((day) => (
                  <li key={day.date}>
                    {fullDay(day.date, locale)} {day.name}
                  </li>
                ))}
              </ul>
              <div className="actions">
                <button type="button" className="primary" disabled={busy} onClick={() => void save(mergeHolidays(days, suggested.days))}>
                  {t('schedule.holidays.addAndSave', { count: suggested.days.length })}
                </button>
              </div>
            </div>
          ))}
      </div>
      <p role="status" className="hint">
        {said}
      </p>
      {failure !== null && <ErrorText>{failure}</ErrorText>}
      {lost !== null && (
        <div className="schedule-lost">
          <p>{t('schedule.holidays.yours', { days: sortHolidays(lost).map((day) => fullDay(day.date, locale)).join(t('schedule.separator')) || t('schedule.holidays.none') })}</p>
          <button type="button" className="secondary" onClick={() => { setDays(lost); setLost(null); }}>
            {t('schedule.redo')}
          </button>
        </div>
      )}
    </section>
  );
}

/** The clinic's closed days as a counselor sees them: read only. */
export function ClosedDays({ holidays, locale }: { holidays: Holidays; locale: Locale }) {
  const { t } = useTranslation('staff');
  return (
    <section className="schedule-section" aria-labelledby="schedule-holidays-title">
      <h2 id="schedule-holidays-title">{t('schedule.holidays.title')}</h2>
      <p className="hint">{t('schedule.holidays.readOnlyLead')}</p>
      {holidays.days.length === 0 ? (
        <p>{t('schedule.holidays.none')}</p>
      ) : (
        <ul className="schedule-list">
          {holidays.days.map((day) => (
            <li key={day.date}>
              {fullDay(day.date, locale)} {day.name}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
