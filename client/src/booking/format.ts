/**
 * Words of the booking screens that depend on the locale: dates (long style in English,
 * short in Japanese, docs/product.md "Constants and limits"), day names of the calendar, the clinic's time zone,
 * prices, session lengths, counselors' names, and every time shown to the patient (`whenOf`: the
 * clinic's, and the person's own beside it when their zone differs; docs/product.md "Times").
 */
import { formatDate } from '../i18n/format';
import type { Locale } from '../i18n/locale';
import { zonedIso } from './slots';

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

/** The zone this browser shows times in: the person's own (docs/product.md, "Times"). */
export function browserZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A moment as the patient reads it: the clinic's day and time with the weekday and the
 * clinic's zone named, and the person's own when their wall clock differs (another zone at
 * that instant; a zone with the clinic's offset reads the same, so it is not repeated).
 */
export interface When {
  /** "Thu, Dec 3, 09:00 Japan Standard Time" / "12月3日(木) 09:00 日本標準時". */
  clinic: string;
  /** "Wed, Dec 2, 4:00 PM Pacific Time" / "12月2日(水) 16:00 米国太平洋時間", or null. */
  person: string | null;
  /** The person's without the zone's name (beside a slot's time): "Wed, Dec 2, 4:00 PM", or null. */
  personShort: string | null;
}

const dayAndTime = { weekday: 'short', month: 'short', day: 'numeric' } as const;

function formatIn(at: Date, locale: Locale, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(locale, options).format(at);
}

/** The same instant's wall clock in two zones differs (the day or the time). */
function wallDiffers(at: Date, a: string, b: string): boolean {
  const wall = (timeZone: string) => formatIn(at, 'en', { timeZone, dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' });
  return wall(a) !== wall(b);
}

/**
 * A clinic day and time ("2026-12-03", "09:00" in `clinicZone`) in words for `locale`; the
 * person's zone is the browser's unless given. Clinic times are 24-hour as on the calendar;
 * the person's follow their language's clock. An unknown zone or malformed time: the
 * clinic's text as given, without the person's.
 */
export function whenOf(date: string, time: string, clinicZone: string, locale: Locale, personZone: string = browserZone()): When {
  const iso = zonedIso(date, time, clinicZone);
  const at = iso === null ? new Date(Number.NaN) : new Date(iso);
  if (Number.isNaN(at.getTime())) return { clinic: `${date} ${time}`, person: null, personShort: null };
  const clinic = formatIn(at, locale, { ...dayAndTime, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: clinicZone, timeZoneName: 'longGeneric' });
  // A zone this browser does not know (zonesDiffer says false): the clinic's time alone.
  if (!zonesDiffer(clinicZone, personZone, at)) return { clinic, person: null, personShort: null };
  const person = { ...dayAndTime, hour: 'numeric', minute: '2-digit', timeZone: personZone } as const;
  return {
    clinic,
    person: formatIn(at, locale, { ...person, timeZoneName: 'longGeneric' }),
    personShort: formatIn(at, locale, person),
  };
}

/** The person's zone named ("Pacific Time" / "米国太平洋時間"), for the calendar's note. */
export function genericZoneName(timeZone: string, locale: Locale, at: Date = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'longGeneric' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
    return part?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** Whether the person's zone reads the clinic's clock differently at `at` (now unless given). */
export function zonesDiffer(clinicZone: string, personZone: string = browserZone(), at: Date = new Date()): boolean {
  try {
    return wallDiffers(at, clinicZone, personZone);
  } catch {
    return false;
  }
}
