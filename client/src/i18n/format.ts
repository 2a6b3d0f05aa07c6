import type { Locale } from './locale';

/** Dates are long style in English and short style in Japanese (docs/product.md "Constants and limits"). */
const dateStyles: Record<Locale, 'long' | 'short'> = { en: 'long', ja: 'short' };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Formats a date for display: "March 5, 2025" in English, "2025/03/05" in Japanese.
 * A date-only string ("2025-03-05") is a calendar date and is shown as that day whatever
 * the viewer's time zone; anything else is shown in `timeZone` (default: the viewer's).
 */
export function formatDate(value: Date | string | number, locale: Locale, timeZone?: string): string {
  const isCalendarDate = typeof value === 'string' && DATE_ONLY.test(value);
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const zone = isCalendarDate ? 'UTC' : timeZone;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: dateStyles[locale],
    ...(zone === undefined ? {} : { timeZone: zone }),
  }).format(date);
}
