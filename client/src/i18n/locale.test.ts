import { describe, expect, it } from 'vitest';
import { contract } from '../contract';
import { formatDate } from './format';
import { defaultLocale, localeFromTag, locales, resolveLocale } from './locale';

describe('resolveLocale', () => {
  it('prefers a valid locale of the user record over everything else', () => {
    expect(resolveLocale({ userLocale: 'en', queryLocale: 'ja', browserLanguages: ['ja-JP'] })).toBe('en');
    expect(resolveLocale({ userLocale: 'ja', queryLocale: 'en', browserLanguages: ['en-US'] })).toBe('ja');
  });

  it('skips an invalid user locale and takes the query parameter', () => {
    expect(resolveLocale({ userLocale: 'fr', queryLocale: 'en', browserLanguages: ['ja'] })).toBe('en');
    expect(resolveLocale({ userLocale: 42, queryLocale: 'en' })).toBe('en');
    expect(resolveLocale({ userLocale: null, queryLocale: 'EN-gb' })).toBe('en');
  });

  it('falls back to the first supported browser language by primary subtag', () => {
    expect(resolveLocale({ queryLocale: 'de', browserLanguages: ['fr-FR', 'en-US', 'ja-JP'] })).toBe('en');
    expect(resolveLocale({ browserLanguages: ['ja-JP', 'en'] })).toBe('ja');
    expect(resolveLocale({ browserLanguages: ['en_GB'] })).toBe('en');
  });

  it('ends with Japanese when nothing is supported', () => {
    expect(resolveLocale({ browserLanguages: ['fr', 'de-DE'] })).toBe('ja');
    expect(resolveLocale({})).toBe('ja');
    expect(defaultLocale).toBe(contract.defaultLocale);
  });

  it('does not take "english" or "jpn" for a supported tag', () => {
    expect(localeFromTag('english')).toBeNull();
    expect(localeFromTag('jpn')).toBeNull();
    expect(localeFromTag('')).toBeNull();
  });

  it('offers exactly the locales of contract.json', () => {
    expect([...locales]).toEqual(contract.locales);
  });
});

describe('formatDate', () => {
  const instant = new Date('2025-03-05T03:00:00Z');

  it('uses the long style in English', () => {
    expect(formatDate(instant, 'en', 'Asia/Tokyo')).toBe('March 5, 2025');
  });

  it('uses the short style in Japanese', () => {
    expect(formatDate(instant, 'ja', 'Asia/Tokyo')).toBe('2025/03/05');
  });

  it('shows a calendar date as that day in any time zone', () => {
    expect(formatDate('2025-12-31', 'en')).toBe('December 31, 2025');
    expect(formatDate('2025-01-01', 'ja')).toBe('2025/01/01');
  });

  it('formats an instant in the given time zone', () => {
    // 23:30 UTC on 4 March is already 5 March in Tokyo.
    expect(formatDate('2025-03-04T23:30:00Z', 'en', 'Asia/Tokyo')).toBe('March 5, 2025');
    expect(formatDate('2025-03-04T23:30:00Z', 'en', 'UTC')).toBe('March 4, 2025');
  });

  it('returns an empty string for an invalid date rather than "Invalid Date"', () => {
    expect(formatDate('not a date', 'en')).toBe('');
  });
});
