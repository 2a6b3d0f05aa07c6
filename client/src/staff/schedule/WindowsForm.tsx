/**
 * The exact-times form, the grid's accessible twin: each day's windows as start and end
 * inputs, a button to remove each and one to add a window to a day. A window the server
 * refused shows its message under its inputs.
 */
import { useTranslation } from 'react-i18next';
import { FieldError } from './FieldError';
import type { Refused } from './schedule';
import { WEEKDAYS } from './WeekGrid';
import { addWindow, changeWindow, minutesOf, removeWindow, timeOf, type WeeklyWindow } from './windows';

interface Props {
  windows: WeeklyWindow[];
  longDays: string[];
  /** Refused paths under `weekly` (`3.end`, `3`...), with the server's sentence. */
  errors: Refused;
  onChange: (windows: WeeklyWindow[], announcement: string) => void;
}

const LATEST_END = 24 * 60;

/** A new window for a day: 09:00-12:00 on an empty day, else the hour after its last window. */
function nextWindow(windows: readonly WeeklyWindow[], weekday: number): WeeklyWindow | null {
  const ends = windows.filter((window) => window.weekday === weekday).map((window) => minutesOf(window.end) ?? 0);
  if (ends.length === 0) return { weekday, start: '09:00', end: '12:00' };
  const start = Math.max(...ends) + 60;
  return start + 60 > LATEST_END ? null : { weekday, start: timeOf(start), end: timeOf(start + 60) };
}

export function WindowsForm({ windows, longDays, errors, onChange }: Props) {
  const { t } = useTranslation('staff');
  const dayName = (day: number) => longDays[day] ?? '';

  return (
    <div className="schedule-exact">
      {WEEKDAYS.map((day) => (
        <fieldset key={day} className="schedule-exact-day">
          <legend>{dayName(day)}</legend>
          {windows.every((window) => window.weekday !== day) && <p className="hint">{t('schedule.exact.none')}</p>}
          {windows.map((window, index) => {
            if (window.weekday !== day) return null;
            const ofDay = windows.filter((other) => other.weekday === day);
            // Several windows of a day: each label says which (1st, 2nd...) so none is named twice.
            const label = (part: 'start' | 'end') =>
              ofDay.length === 1
                ? t(`schedule.exact.${part}`, { day: dayName(day) })
                : t(`schedule.exact.${part}Of`, { day: dayName(day), n: ofDay.indexOf(window) + 1 });
            return (
              <div key={index} className="schedule-exact-window" data-refused={errors[String(index)] !== undefined || errors[`${index}.start`] !== undefined || errors[`${index}.end`] !== undefined || undefined}>
                {(['start', 'end'] as const).map((part) => {
                  const id = `schedule-window-${index}-${part}`;
                  const error = part === 'start' ? errors[`${index}.start`] : (errors[`${index}.end`] ?? errors[`${index}.weekday`] ?? errors[String(index)]);
                  return (
                    <div key={part} className="schedule-time-field">
                      <label htmlFor={id}>{label(part)}</label>
                      <input
                        id={id}
                        type="time"
                        step={300}
                        value={window[part]}
                        aria-invalid={error !== undefined}
                        aria-describedby={error === undefined ? undefined : `${id}-error`}
                        onChange={(event) => {
                          onChange(changeWindow(windows, index, { [part]: event.target.value }), '');
                        }}
                      />
                      {error !== undefined && <FieldError id={`${id}-error`} problem={error} subject="window" />}
                    </div>
                  );
                })}
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('schedule.exact.remove', { day: dayName(day), start: window.start, end: window.end })}
                  onClick={() => {
                    onChange(removeWindow(windows, index), t('schedule.grid.removed', { span: t('schedule.grid.span', { day: dayName(day), start: window.start, end: window.end }) }));
                  }}
                >
                  {t('schedule.exceptions.removeShort')}
                </button>
              </div>
            );
          })}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              const added = nextWindow(windows, day);
              if (added === null) return;
              onChange(addWindow(windows, added), t('schedule.grid.added', { span: t('schedule.grid.span', { day: dayName(day), start: added.start, end: added.end }) }));
            }}
          >
            {t('schedule.exact.add', { day: dayName(day) })}
          </button>
        </fieldset>
      ))}
    </div>
  );
}
