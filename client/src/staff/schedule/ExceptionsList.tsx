/**
 * Dated exceptions of a counselor's hours: a day off, or extra hours on a date. The list
 * (from today: the server shows no past one) with a button to remove each, and a form to add
 * one. A refused exception shows the server's message next to it.
 */
import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fullDay } from '../../booking/format';
import { ErrorText } from '../../components/FieldParts';
import type { Locale } from '../../i18n/locale';
import { isIsoDate } from '../../intake/dates';
import { FieldError } from './FieldError';
import { itemProblems, sortExceptions, type Refused, type ScheduleException } from './schedule';
import { minutesOf } from './windows';

interface Props {
  exceptions: ScheduleException[];
  today: string;
  locale: Locale;
  /** Refused paths under `exceptions` (`2.date`, `2`...), with the server's sentence. */
  errors: Refused;
  onChange: (exceptions: ScheduleException[], announcement: string) => void;
}

type Problem = 'date' | 'times' | null;

export function ExceptionsList({ exceptions, today, locale, errors, onChange }: Props) {
  const { t } = useTranslation('staff');
  const [date, setDate] = useState('');
  const [kind, setKind] = useState<'off' | 'extra'>('off');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [problem, setProblem] = useState<Problem>(null);

  const words = (item: ScheduleException) =>
    item.kind === 'off'
      ? t('schedule.exceptions.offOn', { day: fullDay(item.date, locale) })
      : t('schedule.exceptions.extraOn', { day: fullDay(item.date, locale), start: item.start, end: item.end });

  const add = (event: SyntheticEvent) => {
    event.preventDefault();
    // Only what the form needs to make an exception at all; the server judges the rest.
    const found: Problem = !isIsoDate(date) ? 'date' : kind === 'extra' && (minutesOf(start) === null || minutesOf(end) === null) ? 'times' : null;
    setProblem(found);
    if (found !== null) return;
    const item: ScheduleException = kind === 'off' ? { date, kind } : { date, kind, start, end };
    onChange(sortExceptions([...exceptions, item]), t('schedule.exceptions.added', { what: words(item) }));
    setDate('');
  };

  const field = (id: string, label: string, input: ReactNode) => (
    <div className="staff-filter">
      <label htmlFor={id}>{label}</label>
      {input}
    </div>
  );

  return (
    <section className="schedule-section" aria-labelledby="schedule-exceptions-title">
      <h2 id="schedule-exceptions-title">{t('schedule.exceptions.title')}</h2>
      <p className="hint">{t('schedule.exceptions.lead')}</p>
      {exceptions.length === 0 ? (
        <p>{t('schedule.exceptions.none')}</p>
      ) : (
        <ul className="schedule-list">
          {exceptions.map((item, index) => {
            const refused = itemProblems(errors, index);
            return (
              <li key={`${item.date}-${String(index)}`} data-refused={refused.length > 0 || undefined}>
                <span>{words(item)}</span>
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('schedule.exceptions.remove', { what: words(item) })}
                  onClick={() => {
                    onChange(exceptions.filter((_, at) => at !== index), t('schedule.exceptions.removed', { what: words(item) }));
                  }}
                >
                  {t('schedule.exceptions.removeShort')}
                </button>
                {refused.map(([path, problem]) => (
                  <FieldError key={path} problem={problem} subject="exception" />
                ))}
              </li>
            );
          })}
        </ul>
      )}
      <form className="staff-filters schedule-exception-form" noValidate onSubmit={add} aria-labelledby="schedule-exception-add">
        <h3 id="schedule-exception-add" className="schedule-form-title">
          {t('schedule.exceptions.add')}
        </h3>
        {field(
          'schedule-exception-date',
          t('schedule.exceptions.date'),
          <input
            id="schedule-exception-date"
            type="date"
            min={today}
            value={date}
            aria-invalid={problem === 'date'}
            aria-describedby={problem === 'date' ? 'schedule-exception-problem' : undefined}
            onChange={(event) => {
              setDate(event.target.value);
            }}
          />,
        )}
        {field(
          'schedule-exception-kind',
          t('schedule.exceptions.kind'),
          <select
            id="schedule-exception-kind"
            value={kind}
            onChange={(event) => {
              setKind(event.target.value === 'extra' ? 'extra' : 'off');
            }}
          >
            <option value="off">{t('schedule.exceptions.off')}</option>
            <option value="extra">{t('schedule.exceptions.extra')}</option>
          </select>,
        )}
        {kind === 'extra' && (
          <>
            {field(
              'schedule-exception-start',
              t('schedule.exceptions.start'),
              <input id="schedule-exception-start" type="time" step={300} value={start} aria-invalid={problem === 'times'} onChange={(event) => { setStart(event.target.value); }} />,
            )}
            {field(
              'schedule-exception-end',
              t('schedule.exceptions.end'),
              <input id="schedule-exception-end" type="time" step={300} value={end} aria-invalid={problem === 'times'} aria-describedby={problem === 'times' ? 'schedule-exception-problem' : undefined} onChange={(event) => { setEnd(event.target.value); }} />,
            )}
          </>
        )}
        <div className="actions">
          <button type="submit" className="secondary">
            {t('schedule.exceptions.addButton')}
          </button>
        </div>
        {problem !== null && <ErrorText id="schedule-exception-problem">{t(`schedule.exceptions.problem.${problem}`)}</ErrorText>}
      </form>
    </section>
  );
}
