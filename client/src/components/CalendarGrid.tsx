/**
 * The one calendar grid of the app, used by the booking calendar and the date field's picker:
 * 6 week rows of 7 days, Sunday first (`role="grid"`), one day the tab stop (roving
 * `tabIndex`), and the keys of a date grid: arrows by day and week, Home/End to the week's
 * ends, PageUp/PageDown by month (the same day, at most the 28th).
 *
 * A key's day is offered to `onMove`; when the screen takes it (returns true), it makes that
 * day the tab stop and the grid focuses it in the same commit, before the browser handles the
 * next key (also in a month whose content is still loading: its buttons are there). What a
 * day is (its words, whether it can be chosen) is the screen's: `day(iso)`.
 */
import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { addDays, addMonths, monthGrid, monthOf, weekday } from '../intake/dates';

export interface GridDay {
  className: string;
  /** The button's name: the full date, and why it cannot be chosen. */
  label: string;
  /** Shown, focusable, but not choosable (`aria-disabled`). */
  disabled: boolean;
  /** `data-status`, for the screen's styles and tests. */
  status?: string;
  /** Today (`aria-current="date"`). */
  current?: boolean;
}

export interface CalendarGridProps {
  /** First day of the month shown. */
  month: string;
  className: string;
  labelledBy: string;
  busy?: boolean;
  /** Column headings, Sunday first. */
  weekdays: readonly string[];
  /** The day that takes Tab. */
  tabStop: string;
  selected: string;
  /** How a day shows, or null for a day of another month shown as its number only. */
  day: (iso: string) => GridDay | null;
  /** A key leads to this day: true when the screen made it the tab stop. */
  onMove: (iso: string) => boolean;
  onPick: (iso: string) => void;
  onFocusDay?: (iso: string) => void;
  /**
   * Set to true (by a key here, or by the screen, e.g. after its month select changed) to move
   * focus to the tab stop once its button is there.
   */
  focusTabStopRef: RefObject<boolean>;
}

const STEPS: Readonly<Record<string, number>> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/** The day a key leads to from `from`, or null when the key is not the grid's. */
export function gridKeyTarget(key: string, from: string): string | null {
  const step = STEPS[key];
  if (step !== undefined) return addDays(from, step);
  if (key === 'Home') return addDays(from, -weekday(from));
  if (key === 'End') return addDays(from, 6 - weekday(from));
  if (key === 'PageUp' || key === 'PageDown') {
    const targetMonth = addMonths(monthOf(from), key === 'PageUp' ? -1 : 1);
    const day = Math.min(Number(from.slice(8)), 28);
    return `${targetMonth.slice(0, 8)}${String(day).padStart(2, '0')}`;
  }
  return null;
}

export function CalendarGrid(props: CalendarGridProps) {
  const { month, className, labelledBy, busy, weekdays, tabStop, selected, day, onMove, onPick, onFocusDay, focusTabStopRef } = props;
  const gridRef = useRef<HTMLTableElement>(null);
  const grid = monthGrid(month);

  useLayoutEffect(() => {
    if (!focusTabStopRef.current) return;
    const button = gridRef.current?.querySelector<HTMLButtonElement>(`[data-day="${tabStop}"]`);
    if (!button) return;
    focusTabStopRef.current = false;
    if (button !== button.ownerDocument.activeElement) button.focus();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = gridKeyTarget(event.key, tabStop);
    if (target === null) return;
    event.preventDefault();
    if (onMove(target)) focusTabStopRef.current = true;
  };

  return (
    <table ref={gridRef} className={className} role="grid" aria-labelledby={labelledBy} aria-busy={busy ? true : undefined} onKeyDown={onKeyDown}>
      <thead>
        <tr>
          {weekdays.map((name) => (
            <th key={name} scope="col" abbr={name}>
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {grid.map((week) => (
          <tr key={week[0]}>
            {week.map((iso) => {
              const number = Number(iso.slice(8));
              const shown = day(iso);
              if (shown === null) {
                return (
                  <td key={iso} role="gridcell" className="outside">
                    <span className="day outside" aria-hidden="true">
                      {number}
                    </span>
                  </td>
                );
              }
              return (
                <td key={iso} role="gridcell" aria-selected={iso === selected}>
                  <button
                    type="button"
                    data-day={iso}
                    data-status={shown.status}
                    className={shown.className}
                    tabIndex={iso === tabStop ? 0 : -1}
                    aria-disabled={shown.disabled ? true : undefined}
                    aria-current={shown.current ? 'date' : undefined}
                    aria-label={shown.label}
                    onFocus={() => {
                      onFocusDay?.(iso);
                    }}
                    onClick={() => {
                      onPick(iso);
                    }}
                  >
                    {number}
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
