/**
 * Instants of the staff screens, read in the clinic's zone whatever the browser's (an
 * appointment's start in the audit log, a stranded booking and a free time on the schedule
 * screen).
 */
import type { Locale } from '../i18n/locale';

/** An instant in the clinic's zone, to the minute: "Mar 5, 2025, 11:00" / "2025/03/05 11:00". */
export function startOf(iso: string, zone: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23', timeZone: zone }).format(date);
}

/** The clock time alone of an instant in the clinic's zone: "11:00" ("" for an invalid one). */
export function clockOf(iso: string, zone: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', hourCycle: 'h23', timeZone: zone }).format(date);
}
