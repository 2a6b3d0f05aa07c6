/**
 * One counselor's schedule being edited: the week grid and its exact-times twin, the dated
 * exceptions, the languages, and "Save" (`schedule-update` with the version that was read).
 * A stale version (`ABORTED`) shows the stored schedule and keeps the person's change on
 * screen, in words, with a button to put it back; refused fields show the server's message
 * next to the window or exception they name.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fullDay, weekdayNames } from '../../booking/format';
import { ErrorText } from '../../components/FieldParts';
import type { Locale } from '../../i18n/locale';
import { isRecord } from '../../isRecord';
import { callFunction, errorMessageKey } from '../../realtime';
import { ExceptionsList } from './ExceptionsList';
import { FieldError } from './FieldError';
import {
  LANGUAGES,
  draftOf,
  errorsUnder,
  fieldErrors,
  parseConflicts,
  parseSchedule,
  sameDraft,
  staleCurrent,
  updateRequest,
  type Conflict,
  type Schedule,
  type Refused,
  type ScheduleDraft,
} from './schedule';
import { WeekGrid } from './WeekGrid';
import { WindowsForm } from './WindowsForm';
import { gridRows, removeWindow } from './windows';

/** Day names Monday first (the grid's order, weekday 0 = Monday). */
function mondayFirst(names: string[]): string[] {
  return [...names.slice(1), ...names.slice(0, 1)];
}

function longWeekdays(locale: Locale): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}

interface Props {
  clinicId: string;
  schedule: Schedule;
  today: string;
  zoneName: string;
  locale: Locale;
  onSaved: (schedule: Schedule, conflicts: Conflict[]) => void;
  onDirty: (dirty: boolean) => void;
}

export function ScheduleEditor({ clinicId, schedule: read, today, zoneName, locale, onSaved, onDirty }: Props) {
  const { t } = useTranslation(['staff', 'errors']);
  const [schedule, setSchedule] = useState(read);
  const [draft, setDraftState] = useState<ScheduleDraft>(draftOf(read));
  const [refused, setRefused] = useState<Refused>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [lost, setLost] = useState<ScheduleDraft | null>(null);
  const [selectedWindow, setSelectedWindow] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [saving, setSaving] = useState(false);
  const shortDays = useMemo(() => mondayFirst(weekdayNames(locale)), [locale]);
  const longDays = useMemo(() => longWeekdays(locale), [locale]);
  const rows = useMemo(() => gridRows(draft.weekly), [draft.weekly]);
  const dirty = !sameDraft(draft, draftOf(schedule));
  const weeklyErrors = errorsUnder(refused, 'weekly');
  const refusedWindows = new Set(Object.keys(weeklyErrors).map((path) => Number(path.split('.')[0])).filter(Number.isInteger));

  const setDraft = (next: ScheduleDraft, said = '') => {
    setDraftState(next);
    setRefused({});
    onDirty(!sameDraft(next, draftOf(schedule)));
    if (said !== '') setAnnouncement(said);
  };

  const save = async () => {
    setSaving(true);
    setFailure(null);
    setRefused({});
    try {
      const reply = await callFunction('schedule-update', updateRequest(clinicId, schedule, draft));
      const data = isRecord(reply) ? reply : {};
      const saved = parseSchedule(data.schedule) ?? { ...schedule, ...draft, version: schedule.version + 1 };
      const conflicts = parseConflicts(data.conflicts);
      setSchedule(saved);
      setDraftState(draftOf(saved));
      setLost(null);
      onDirty(false);
      setAnnouncement(t('schedule.saved'));
      onSaved(saved, conflicts);
    } catch (error) {
      const current = parseSchedule(staleCurrent(error));
      if (current !== null) {
        setLost(draft);
        setSchedule(current);
        setDraftState(draftOf(current));
        onDirty(false);
        setFailure(t('schedule.stale'));
        return;
      }
      const fields = fieldErrors(error);
      setRefused(fields);
      setFailure(Object.keys(fields).length > 0 ? t('schedule.refused.summary') : t(errorMessageKey(error)));
    } finally {
      setSaving(false);
    }
  };

  const lostWords = (held: ScheduleDraft): string[] => [
    ...held.weekly.map((window) => t('schedule.grid.span', { day: longDays[window.weekday] ?? '', start: window.start, end: window.end })),
    ...held.exceptions.map((item) =>
      item.kind === 'off'
        ? t('schedule.exceptions.offOn', { day: fullDay(item.date, locale) })
        : t('schedule.exceptions.extraOn', { day: fullDay(item.date, locale), start: item.start, end: item.end }),
    ),
  ];

  const topLevel = Object.entries(refused).filter(([path]) => !/^(weekly|exceptions)\.\d+/.test(path));
  const selected = selectedWindow === null ? undefined : draft.weekly[selectedWindow];

  return (
    <div className="schedule-editor">
      <div aria-live="polite" aria-atomic="true" className="visually-hidden" data-testid="schedule-announcer">
        {announcement}
      </div>
      <section className="schedule-section" aria-labelledby="schedule-weekly-title">
        <h2 id="schedule-weekly-title">{t('schedule.weekly.title')}</h2>
        <p className="hint">{t('schedule.weekly.zone', { zone: zoneName })}</p>
        <p className="hint" id="schedule-grid-keys">
          {t('schedule.weekly.keys')}
        </p>
        <WeekGrid
          windows={draft.weekly}
          rows={rows}
          shortDays={shortDays}
          longDays={longDays}
          refused={refusedWindows}
          selectedWindow={selectedWindow}
          onSelectWindow={setSelectedWindow}
          onChange={(weekly, said) => {
            setDraft({ ...draft, weekly }, said);
          }}
          onAnnounce={setAnnouncement}
          labelledBy="schedule-weekly-title"
        />
        {selected !== undefined && selectedWindow !== null && (
          <div className="actions">
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setSelectedWindow(null);
                setDraft({ ...draft, weekly: removeWindow(draft.weekly, selectedWindow) }, t('schedule.grid.removed', { span: t('schedule.grid.span', { day: longDays[selected.weekday] ?? '', start: selected.start, end: selected.end }) }));
              }}
            >
              {t('schedule.weekly.removeSelected', { span: t('schedule.grid.span', { day: longDays[selected.weekday] ?? '', start: selected.start, end: selected.end }) })}
            </button>
          </div>
        )}
        <details className="schedule-exact-details" open={Object.keys(weeklyErrors).length > 0 || undefined}>
          <summary>{t('schedule.exact.title')}</summary>
          <WindowsForm
            windows={draft.weekly}
            longDays={longDays}
            errors={weeklyErrors}
            onChange={(weekly, said) => {
              setSelectedWindow(null);
              setDraft({ ...draft, weekly }, said);
            }}
          />
        </details>
      </section>
      <ExceptionsList
        exceptions={draft.exceptions}
        today={today}
        locale={locale}
        errors={errorsUnder(refused, 'exceptions')}
        onChange={(exceptions, said) => {
          setDraft({ ...draft, exceptions }, said);
        }}
      />
      <fieldset className="schedule-section schedule-languages" aria-describedby={refused.languages === undefined ? undefined : 'schedule-languages-error'}>
        <legend>{t('schedule.languages.title')}</legend>
        {LANGUAGES.map((language) => (
          <label key={language} className="schedule-check">
            <input
              type="checkbox"
              checked={draft.languages.includes(language)}
              onChange={(event) => {
                const languages = event.target.checked ? [...draft.languages, language] : draft.languages.filter((other) => other !== language);
                setDraft({ ...draft, languages: LANGUAGES.filter((known) => languages.includes(known)) });
              }}
            />{' '}
            {t(`schedule.languages.${language}`)}
          </label>
        ))}
        {refused.languages !== undefined && <FieldError id="schedule-languages-error" problem={refused.languages} subject="languages" />}
      </fieldset>
      {topLevel
        .filter(([path]) => path !== 'languages')
        .map(([path, problem]) => (
          <FieldError key={path} problem={problem} subject="schedule" />
        ))}
      {failure !== null && <ErrorText>{failure}</ErrorText>}
      {lost !== null && (
        <div className="schedule-lost" role="region" aria-labelledby="schedule-lost-title">
          <h3 id="schedule-lost-title" className="schedule-form-title">
            {t('schedule.lost.title')}
          </h3>
          <ul>
            {lostWords(lost).map((words) => (
              <li key={words}>{words}</li>
            ))}
          </ul>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft(lost, t('schedule.lost.restored'));
              setLost(null);
            }}
          >
            {t('schedule.redo')}
          </button>
        </div>
      )}
      <div className="actions schedule-save">
        <button type="button" className="primary" disabled={!dirty || saving} onClick={() => void save()}>
          {saving ? t('schedule.saving') : t('schedule.save')}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!dirty || saving}
          onClick={() => {
            setSelectedWindow(null);
            setDraft(draftOf(schedule), t('schedule.undone'));
          }}
        >
          {t('schedule.undo')}
        </button>
        {dirty && <span className="hint">{t('schedule.unsaved')}</span>}
      </div>
    </div>
  );
}
