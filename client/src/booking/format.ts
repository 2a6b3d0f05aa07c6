/**
 * Words of the booking screens that depend on the locale: dates (long style in English,
 * short in Japanese, docs/product.md "Constants and limits"), day names of the calendar, the clinic's time zone,
 * prices, and counselors' names.
 */
import { formatDate } from '../i18n/format';
import type { Locale } from '../i18n/locale';

/** A clinic day "2025-03-05": "March 5, 2025" (en) or "2025/03/05" (ja). */
export function formatDay(day: string, locale: Locale): string {
  return formatDate(day, locale);
}

/** A clinic day with its weekday, as a calendar day is named: "Wednesday, March 5, 2025" / "2025年3月5日水曜日". */
export function fullDay(day: string, locale: Locale): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(date);
}

/** "2025-03-01" -> "March 2025" / "2025年3月". */
export function monthTitle(monthStart: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${monthStart}T00:00:00Z`),
  );
}

/** Short weekday names, Sunday first: "Sun" ... / "日" ... */
export function weekdayNames(locale: Locale): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  // 2023-01-01 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2023, 0, 1 + i))));
}

/** The long name of a time zone in the locale: "Japan Standard Time" / "日本標準時". */
export function timeZoneName(timeZone: string, locale: Locale, at: Date = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'long' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** A price: "¥16,500" (en); in Japanese yen amounts read "16,500円". */
export function formatPrice(price: { amount: number; currency: string }, locale: Locale): string {
  if (locale === 'ja' && price.currency === 'JPY') return `${new Intl.NumberFormat('ja-JP').format(price.amount)}円`;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: price.currency }).format(price.amount);
  } catch {
    return `${String(price.amount)} ${price.currency}`;
  }
}

/**
 * A counselor's name, from `clinic-read`'s `counselors` (`[{id, name: {ja, en}}]`, docs/protocol.md;
 * a map `{id: {ja, en}}` is read too). A counselor the clinic record does not list (removed since
 * the booking) is shown through the `fallback` label ("Counselor c-sato").
 * Every screen names counselors through this one function.
 */
export function counselorName(
  id: string,
  locale: Locale,
  clinic: Record<string, unknown> | null | undefined,
  fallback: (id: string) => string,
): string {
  const counselors = clinic?.counselors;
  let name: unknown;
  if (Array.isArray(counselors)) {
    const entry: unknown = counselors.find((c: unknown) => typeof c === 'object' && c !== null && (c as { id?: unknown }).id === id);
    name = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
  } else if (typeof counselors === 'object' && counselors !== null) {
    name = (counselors as Record<string, unknown>)[id];
  }
  if (typeof name === 'string' && name !== '') return name;
  if (typeof name === 'object' && name !== null) {
    const localized = (name as Record<string, unknown>)[locale];
    if (typeof localized === 'string' && localized !== '') return localized;
  }
  return fallback(id);
}
