/**
 * A date-only field: type the date (2025-03-05, 2025/3/5, 2025年3月5日) or pick it in a calendar.
 * Typed input is read 1000 ms after the last keystroke (docs/product.md "Constants and limits"), or at once on leaving
 * the field or pressing Enter; outside typing the value is shown in the person's style. The
 * value is an ISO date when the text is a date, else the text as typed (validation then says
 * it is not a valid date). The calendar disables dates outside the bounds, and a click on one
 * is refused: the previous value stays.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../i18n/format';
import type { Locale } from '../i18n/locale';
import {
  addDays,
  addMonths,
  isDisabledDate,
  isIsoDate,
  monthGrid,
  monthOf,
  parseTypedDate,
  pickDate,
  type DateBounds,
} from './index';
import { CalendarGrid, type GridDay } from '../components/CalendarGrid';
import { describedBy, FieldLabel } from '../components/FieldParts';

/** Typed input is read this long after the last keystroke (docs/product.md "Constants and limits"). */
export const DATE_INPUT_DEBOUNCE_MS = 1000;

export interface DateFieldProps {
  id: string;
  label: string;
  required: boolean;
  /** ISO date, typed text, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** The typed text has been read on leaving the field (its problem may show from then on). */
  onBlur?: () => void;
  bounds: DateBounds;
  locale: Locale;
  invalid: boolean;
  errorId: string | undefined;
  /** Today in the clinic's zone (the calendar opens there when nothing is chosen). */
  today?: string;
}

function display(value: string, locale: Locale): string {
  return isIsoDate(value) ? formatDate(value, locale) : value;
}

/** What the typed text stands for: its ISO date, '' for nothing, else the text itself. */
function readTyped(text: string): string {
  if (text.trim() === '') return '';
  return parseTypedDate(text) ?? text;
}

export function DateField({ id, label, required, value, onChange, onBlur, bounds, locale, invalid, errorId, today }: DateFieldProps) {
  const { t } = useTranslation('intake');
  const hintId = `${id}-format`;
  const [text, setText] = useState(() => display(value, locale));
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inputRef = useRef<HTMLInputElement>(null);

  // Outside typing, show the value (also when it changes elsewhere: the calendar, another tab).
  const shown = editing ? text : display(value, locale);

  useEffect(() => () => {
    clearTimeout(timer.current);
  }, []);

  const commit = (typed: string) => {
    clearTimeout(timer.current);
    const next = readTyped(typed);
    if (next !== value) onChange(next);
  };

  return (
    <div className="date-field">
      <FieldLabel id={`${id}-label`} htmlFor={id} label={label} required={required} />
      <div className="date-row">
        <input
          ref={inputRef}
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={shown}
          aria-invalid={invalid}
          aria-required={required}
          aria-describedby={describedBy(hintId, errorId)}
          onChange={(event) => {
            const typed = event.target.value;
            setEditing(true);
            setText(typed);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => {
              commit(typed);
            }, DATE_INPUT_DEBOUNCE_MS);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && editing) commit(text);
          }}
          onBlur={() => {
            if (editing) commit(text);
            setEditing(false);
            onBlur?.();
          }}
        />
        <button
          type="button"
          className="secondary calendar-toggle"
          aria-expanded={open}
          aria-controls={`${id}-calendar`}
          // Named "Calendar"; described by the field's label (not named by it, so that the
          // label names the text box alone).
          aria-describedby={`${id}-label`}
          onClick={() => {
            setOpen((was) => !was);
          }}
        >
          {t('date.calendar')}
        </button>
      </div>
      <p id={hintId} className="hint">
        {t('date.format')}
      </p>
      {open && (
        <Calendar
          id={`${id}-calendar`}
          value={isIsoDate(value) ? value : ''}
          bounds={bounds}
          locale={locale}
          today={today}
          onPick={(day) => {
            const picked = pickDate(day, value, bounds);
            if (isDisabledDate(day, bounds)) return; // refused: the previous value stays
            if (picked !== value) onChange(picked);
            setEditing(false);
            setOpen(false);
            inputRef.current?.focus();
          }}
          onClose={() => {
            setOpen(false);
            inputRef.current?.focus();
          }}
        />
      )}
    </div>
  );
}

interface CalendarProps {
  id: string;
  value: string;
  bounds: DateBounds;
  locale: Locale;
  today: string | undefined;
  onPick: (day: string) => void;
  onClose: () => void;
}

/** Where the calendar opens: the value's month, else today's, moved inside the bounds. */
function initialFocus(value: string, bounds: DateBounds, today: string | undefined): string {
  if (value !== '') return value;
  let day = today ?? new Date().toISOString().slice(0, 10);
  if (bounds.before !== undefined && day > bounds.before) day = bounds.before;
  if (bounds.after !== undefined && day <= bounds.after) day = addDays(bounds.after, 1);
  return day;
}

function Calendar({ id, value, bounds, locale, today, onPick, onClose }: CalendarProps) {
  const { t } = useTranslation('intake');
  const headingId = useId();
  const [focused, setFocused] = useState(() => initialFocus(value, bounds, today));
  const month = monthOf(focused);
  const grid = monthGrid(month);
  // Set by a key of the grid, the month buttons and selects: focus goes to the day moved to.
  const movedRef = useRef(false);

  const move = (day: string) => {
    movedRef.current = true;
    setFocused(day);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };

  const [yearNow] = (today ?? focused).split('-').map(Number) as [number];
  const firstYear = Number((bounds.after ?? `${String(yearNow - 120)}-01-01`).slice(0, 4));
  const lastYear = Number((bounds.before ?? `${String(yearNow + 2)}-12-31`).slice(0, 4));
  const years = Array.from({ length: Math.max(1, lastYear - firstYear + 1) }, (_, i) => firstYear + i);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const monthName = (m: number) =>
    new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, m - 1, 1)));
  const weekdayName = (day: string) =>
    new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
  const longDate = (day: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

  return (
    <div id={id} className="calendar" role="group" aria-labelledby={headingId} onKeyDown={onKeyDown}>
      <div className="calendar-header">
        <button type="button" className="secondary" aria-label={t('date.previousMonth')} onClick={() => { move(addMonths(month, -1)); }}>
          ‹
        </button>
        <span id={headingId} className="visually-hidden">
          {new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${month}T00:00:00Z`))}
        </span>
        <select
          aria-label={t('date.year')}
          value={String(year)}
          onChange={(event) => {
            move(`${event.target.value.padStart(4, '0')}-${String(monthNumber).padStart(2, '0')}-01`);
          }}
        >
          {(years.includes(year) ? years : [...years, year].sort((a, b) => a - b)).map((y) => (
            <option key={y} value={String(y)}>
              {y}
            </option>
          ))}
        </select>
        <select
          aria-label={t('date.month')}
          value={String(monthNumber)}
          onChange={(event) => {
            move(`${String(year).padStart(4, '0')}-${event.target.value.padStart(2, '0')}-01`);
          }}
        >
          {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
            <option key={m} value={String(m)}>
              {monthName(m)}
            </option>
          ))}
        </select>
        <button type="button" className="secondary" aria-label={t('date.nextMonth')} onClick={() => { move(addMonths(month, 1)); }}>
          ›
        </button>
        <button type="button" className="link-button" onClick={onClose}>
          {t('date.close')}
        </button>
      </div>
      <CalendarGrid
        month={month}
        className="calendar-grid"
        labelledBy={headingId}
        weekdays={(grid[0] ?? []).map(weekdayName)}
        tabStop={focused}
        selected={value}
        day={(day): GridDay => {
          const disabled = isDisabledDate(day, bounds);
          return {
            className: `day${monthOf(day) !== month ? ' outside' : ''}${day === value ? ' selected' : ''}`,
            disabled,
            label: disabled ? `${longDate(day)} (${t('date.unavailable')})` : longDate(day),
          };
        }}
        onMove={(day) => {
          setFocused(day);
          return true;
        }}
        onPick={onPick}
        focusTabStopRef={movedRef}
      />
    </div>
  );
}
