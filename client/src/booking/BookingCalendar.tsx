/**
 * The booking calendar: one month as 6 week rows of 7 days (Sunday first), days of the
 * clinic's time zone. A day with free times is a button named by its full date ("Wednesday,
 * March 5, 2025"); other days are `aria-disabled` and say why ("..., no available times" or
 * "..., outside the period for this service"). Arrow keys move by day and week (into the
 * next or previous month within the range), PageUp/PageDown by month, Home/End to the
 * week's ends; a swipe (at most 300 ms, at least 60 px sideways, at most 80 px up or down)
 * changes the month.
 *
 * While a month's free times are looked up, the grid stays: its days are shown but not yet
 * choosable (`aria-disabled`, ", looking for available times"), the grid is `aria-busy` and
 * the polite status line below it says so. A key that moves into such a month moves the
 * roving tab stop and the focus at once, and the keys keep working meanwhile; when the times
 * arrive, the focused day becomes choosable where it is. Only the screen's first look-up,
 * before any month was shown, has the status line alone.
 */
import { useId, useRef, useState, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './booking.css';
import { CalendarGrid, type GridDay } from '../components/CalendarGrid';
import { addMonths, dayStatus, monthGrid, monthOf, type DayContext, type DayStatus } from './calendar';
import { fullDay, monthTitle, weekdayNames } from './format';
import { swipeDirection, type TouchPoint } from './swipe';
import type { Locale } from '../i18n/locale';

export interface BookingCalendarProps {
  /** First day of the month shown. */
  month: string;
  range: { first: string; last: string };
  onMonthChange: (month: string) => void;
  /** What decides each day's status; `loading` also keeps the grid busy and says so. */
  days: Required<DayContext>;
  selected: string;
  onSelect: (day: string) => void;
  locale: Locale;
}

export function BookingCalendar(props: BookingCalendarProps) {
  const { month, range, onMonthChange, days, selected, onSelect, locale } = props;
  const { today, loading } = days;
  const { t } = useTranslation('booking');
  const headingId = useId();
  const touch = useRef<TouchPoint | null>(null);
  const [focused, setFocused] = useState<string | null>(null);
  const movedRef = useRef(false);
  // The grid appears once the first month is in, then stays (busy while a month loads).
  const [gridShown, setGridShown] = useState(!loading);
  if (!loading && !gridShown) setGridShown(true);
  const grid = monthGrid(month);
  const status = (day: string): DayStatus => dayStatus(day, month, days);
  const monthDays = grid.flat().filter((day) => monthOf(day) === month);

  // The day that takes Tab: the one moved to, else the selected one, else the first free one.
  const tabStop =
    focused !== null && monthOf(focused) === month
      ? focused
      : monthOf(selected) === month && selected !== ''
        ? selected
        : (monthDays.find((day) => status(day) === 'available') ?? (monthOf(today) === month ? today : month));

  const canShow = (target: string) => target >= range.first && target <= range.last;

  const goToMonth = (delta: number) => {
    const target = addMonths(month, delta);
    if (canShow(target)) onMonthChange(target);
  };

  // A key of the grid leads to a day: it becomes the tab stop (its month shown, maybe still
  // loading) unless its month is out of range.
  const moveTo = (day: string): boolean => {
    const target = monthOf(day);
    if (!canShow(target)) return false;
    setFocused(day);
    if (target !== month) onMonthChange(target);
    return true;
  };

  const onTouchStart = (event: TouchEvent) => {
    const point = event.touches[0];
    touch.current = point ? { x: point.clientX, y: point.clientY, t: event.timeStamp } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touch.current;
    const point = event.changedTouches[0];
    touch.current = null;
    if (!start || !point) return;
    const direction = swipeDirection(start, { x: point.clientX, y: point.clientY, t: event.timeStamp });
    if (direction === 'next') goToMonth(1);
    else if (direction === 'previous') goToMonth(-1);
  };

  const names = weekdayNames(locale);
  const suffix: Partial<Record<DayStatus, string>> = {
    unavailable: t('calendar.noTimes'),
    outsideWindow: t('calendar.outsideWindow'),
    pending: t('calendar.pending'),
  };

  const gridDay = (day: string): GridDay | null => {
    const dayState = status(day);
    if (dayState === 'outside') return null;
    const extra = suffix[dayState];
    return {
      className: `day ${dayState}${day === selected ? ' selected' : ''}`,
      status: dayState,
      disabled: dayState !== 'available',
      current: day === today,
      label: extra === undefined ? fullDay(day, locale) : `${fullDay(day, locale)}${t('calendar.separator')}${extra}`,
    };
  };

  return (
    <div className="booking-calendar" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
      <div className="booking-calendar-header">
        <button
          type="button"
          className="secondary"
          aria-label={t('calendar.previousMonth')}
          disabled={!canShow(addMonths(month, -1))}
          onClick={() => {
            goToMonth(-1);
          }}
        >
          <span aria-hidden="true">‹</span>
        </button>
        <h2 id={headingId} aria-live="polite">
          {monthTitle(month, locale)}
        </h2>
        <button
          type="button"
          className="secondary"
          aria-label={t('calendar.nextMonth')}
          disabled={!canShow(addMonths(month, 1))}
          onClick={() => {
            goToMonth(1);
          }}
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
      {gridShown && (
        <CalendarGrid
          month={month}
          className="booking-calendar-grid"
          labelledBy={headingId}
          busy={loading}
          weekdays={names}
          tabStop={tabStop}
          selected={selected}
          day={gridDay}
          onMove={moveTo}
          onPick={(day) => {
            if (status(day) === 'available') onSelect(day);
          }}
          onFocusDay={(day) => {
            if (focused !== day) setFocused(day);
          }}
          focusTabStopRef={movedRef}
        />
      )}
      {/* Always there, so that the words put in it are announced. */}
      <p role="status" className="booking-calendar-status">
        {loading && (
          <>
            <span className="spinner" aria-hidden="true" /> {t('calendar.loading')}
          </>
        )}
      </p>
    </div>
  );
}
