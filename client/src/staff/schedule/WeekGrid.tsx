/**
 * The week grid (ARIA grid pattern): 7 day columns, Monday first, by 30-minute rows in the
 * clinic's zone; the weekly windows shown as blocks. One tab stop (roving tabindex): arrows
 * move, Shift+Up/Down extend a selection in a day, Enter/Space add it as a window, Delete or
 * Backspace remove the window under the focus, Escape drops the selection. With a mouse:
 * press and drag in a day to add a window; click a window to select it. Every change is
 * announced in words by the screen (`onAnnounce`).
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CELL_MINUTES,
  addWindow,
  removeWindow,
  selectionWindow,
  timeOf,
  windowAt,
  type Selection,
  type WeeklyWindow,
} from './windows';

export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

interface Props {
  windows: WeeklyWindow[];
  rows: number[];
  /** Day names, Monday first: short for the headers, long for what is read out. */
  shortDays: string[];
  longDays: string[];
  /** Indexes of windows the server refused (marked on the grid). */
  refused: ReadonlySet<number>;
  selectedWindow: number | null;
  onSelectWindow: (index: number | null) => void;
  onChange: (windows: WeeklyWindow[], announcement: string) => void;
  onAnnounce: (announcement: string) => void;
  labelledBy: string;
}

interface Cell {
  day: number;
  row: number;
}

const clamp = (value: number, max: number) => Math.max(0, Math.min(max, value));

function inSelection(selection: Selection | null, day: number, row: number): boolean {
  if (selection?.weekday !== day) return false;
  return row >= Math.min(selection.anchor, selection.focus) && row <= Math.max(selection.anchor, selection.focus);
}

export function WeekGrid({ windows, rows, shortDays, longDays, refused, selectedWindow, onSelectWindow, onChange, onAnnounce, labelledBy }: Props) {
  const { t } = useTranslation('staff');
  const [focus, setFocus] = useState<Cell>({ day: 0, row: Math.max(0, rows.indexOf(9 * 60)) });
  const [selection, setSelection] = useState<Selection | null>(null);
  const [dragging, setDragging] = useState(false);
  const cells = useRef(new Map<string, HTMLElement>());
  const focusWithin = useRef(false);
  const lastRow = rows.length - 1;
  const current: Cell = { day: focus.day, row: clamp(focus.row, lastRow) };

  useEffect(() => {
    if (focusWithin.current) cells.current.get(`${current.day}:${current.row}`)?.focus();
  }, [current.day, current.row]);

  const dayName = (day: number) => longDays[day] ?? '';
  const span = (window: WeeklyWindow) => t('schedule.grid.span', { day: dayName(window.weekday), start: window.start, end: window.end });

  const add = (chosen: Selection) => {
    const window = selectionWindow(chosen, rows);
    setSelection(null);
    if (window === null) return;
    const next = addWindow(windows, window);
    const merged = next.find((item) => item.weekday === window.weekday && item.start <= window.start && item.end >= window.end);
    onChange(next, t('schedule.grid.added', { span: span(merged ?? window) }));
  };

  const remove = (index: number) => {
    const window = windows[index];
    if (window === undefined) return;
    onSelectWindow(null);
    onChange(removeWindow(windows, index), t('schedule.grid.removed', { span: span(window) }));
  };

  const describe = (cell: Cell): string => {
    const minute = rows[cell.row] ?? 0;
    const at = windowAt(windows, cell.day, minute);
    const where = t('schedule.grid.cell', { day: dayName(cell.day), start: timeOf(minute), end: timeOf(minute + CELL_MINUTES) });
    const window = windows[at];
    const state = window === undefined ? t('schedule.grid.free') : t('schedule.grid.inWindow', { start: window.start, end: window.end });
    return t('schedule.grid.cellState', { where, state });
  };

  const move = (cell: Cell, extend: boolean) => {
    const next = { day: clamp(cell.day, 6), row: clamp(cell.row, lastRow) };
    setFocus(next);
    if (extend) {
      const anchor = selection !== null && selection.weekday === next.day ? selection.anchor : current.row;
      const extended = { weekday: next.day, anchor, focus: next.row };
      setSelection(extended);
      const window = selectionWindow(extended, rows);
      if (window !== null) onAnnounce(t('schedule.grid.selected', { span: span(window) }));
    } else {
      setSelection(null);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const { day, row } = current;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => { move({ day: day - 1, row }, false); },
      ArrowRight: () => { move({ day: day + 1, row }, false); },
      ArrowUp: () => { move({ day, row: row - 1 }, event.shiftKey); },
      ArrowDown: () => { move({ day, row: row + 1 }, event.shiftKey); },
      Home: () => { move({ day, row: 0 }, event.shiftKey); },
      End: () => { move({ day, row: lastRow }, event.shiftKey); },
      Enter: () => { add(selection ?? { weekday: day, anchor: row, focus: row }); },
      ' ': () => { add(selection ?? { weekday: day, anchor: row, focus: row }); },
      Delete: () => { removeAtFocus(); },
      Backspace: () => { removeAtFocus(); },
      Escape: () => { setSelection(null); onSelectWindow(null); },
    };
    const action = keys[event.key];
    if (action === undefined) return;
    event.preventDefault();
    action();
  };

  const removeAtFocus = () => {
    const at = windowAt(windows, current.day, rows[current.row] ?? 0);
    if (at >= 0) remove(at);
    else if (selectedWindow !== null) remove(selectedWindow);
    else onAnnounce(t('schedule.grid.nothingToRemove'));
  };

  const pressed = (cell: Cell) => {
    setFocus(cell);
    const at = windowAt(windows, cell.day, rows[cell.row] ?? 0);
    const window = windows[at];
    if (window !== undefined) {
      setSelection(null);
      onSelectWindow(at);
      onAnnounce(t('schedule.grid.windowSelected', { span: span(window) }));
      return;
    }
    onSelectWindow(null);
    setSelection({ weekday: cell.day, anchor: cell.row, focus: cell.row });
    setDragging(true);
  };

  // A press released outside the grid adds nothing.
  useEffect(() => {
    if (!dragging) return;
    const cancel = () => {
      setDragging(false);
      setSelection(null);
    };
    globalThis.addEventListener('pointerup', cancel);
    return () => {
      globalThis.removeEventListener('pointerup', cancel);
    };
  }, [dragging]);

  const released = () => {
    if (!dragging || selection === null) return;
    setDragging(false);
    add(selection);
  };

  return (
    <div className="schedule-grid-scroll">
      <table
        role="grid"
        className="schedule-grid"
        aria-labelledby={labelledBy}
        aria-describedby="schedule-grid-keys"
        onKeyDown={onKeyDown}
        onPointerUp={released}
        onFocus={() => { focusWithin.current = true; }}
        onBlur={() => { focusWithin.current = false; }}
      >
        <thead>
          <tr>
            <td className="schedule-grid-corner" />
            {WEEKDAYS.map((day) => (
              <th key={day} scope="col" abbr={dayName(day)}>
                {shortDays[day]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((minute, row) => (
            <tr key={minute}>
              <th scope="row" className="schedule-grid-time">
                {minute % 60 === 0 ? timeOf(minute) : <span className="visually-hidden">{timeOf(minute)}</span>}
              </th>
              {WEEKDAYS.map((day) => {
                const at = windowAt(windows, day, minute);
                const window = windows[at];
                const first = window !== undefined && (row === 0 || windowAt(windows, day, rows[row - 1] ?? -1) !== at);
                const focused = current.day === day && current.row === row;
                return (
                  <td
                    key={day}
                    role="gridcell"
                    ref={(element) => {
                      if (element === null) cells.current.delete(`${day}:${row}`);
                      else cells.current.set(`${day}:${row}`, element);
                    }}
                    tabIndex={focused ? 0 : -1}
                    aria-label={describe({ day, row })}
                    aria-selected={inSelection(selection, day, row) || (at >= 0 && at === selectedWindow)}
                    data-window={window === undefined ? undefined : at}
                    data-first={first || undefined}
                    data-refused={(at >= 0 && refused.has(at)) || undefined}
                    className="schedule-cell"
                    onPointerDown={(event) => {
                      event.preventDefault(); // no text selection while dragging
                      event.currentTarget.focus();
                      pressed({ day, row });
                    }}
                    onFocus={() => {
                      if (!focused) setFocus({ day, row });
                    }}
                    onPointerEnter={() => {
                      if (dragging && selection !== null && selection.weekday === day) setSelection({ ...selection, focus: row });
                    }}
                  >
                    {first ? (
                      <span className="schedule-block-label" aria-hidden="true">
                        {window.start}–<wbr />
                        {window.end}
                      </span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
