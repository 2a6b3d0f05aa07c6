/**
 * Which interface language to show (docs/product.md "The booking flow"), as pure functions.
 */
import { defaultLocaleName, supportedLocales } from '../contract';
import { translatedLanguages } from './bundles';
import type { resources } from './resources';

/** An interface language with translations: "ja" or "en". */
export type Locale = keyof typeof resources;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && supportedLocales.includes(value) && translatedLanguages.includes(value);
}

function toLocale(value: string): Locale {
  if (!isLocale(value)) throw new Error(`contract.json names locale "${value}" without translations`);
  return value;
}

/** The contract's default language (ja). */
export const defaultLocale: Locale = toLocale(defaultLocaleName);

/** The languages of the contract, in its order. */
export const locales: readonly Locale[] = supportedLocales.map(toLocale);

/**
 * A language tag such as "en-US" or "JA" -> a supported locale by its primary subtag,
 * or null when it names none.
 */
export function localeFromTag(tag: string | null | undefined): Locale | null {
  if (typeof tag !== 'string') return null;
  const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
  return isLocale(primary) ? primary : null;
}

export interface LocaleSources {
  /** `locale` of the user record, when it is loaded. */
  userLocale?: unknown;
  /** The `locale` query parameter of a login screen. */
  queryLocale?: string | null | undefined;
  /** navigator.languages (most preferred first). */
  browserLanguages?: readonly string[] | undefined;
}

/**
 * The user record's locale if valid, else the `locale` query parameter if valid, else the
 * first browser language whose primary subtag is supported, else the default (ja).
 */
export function resolveLocale({ userLocale, queryLocale, browserLanguages = [] }: LocaleSources): Locale {
  if (isLocale(userLocale)) return userLocale;
  const fromQuery = localeFromTag(queryLocale);
  if (fromQuery) return fromQuery;
  for (const tag of browserLanguages) {
    const fromBrowser = localeFromTag(tag);
    if (fromBrowser) return fromBrowser;
  }
  return defaultLocale;
}
