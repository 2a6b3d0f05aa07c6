import { describe, expect, it, vi } from 'vitest';
import { browserZone, counselorName, formatDay, formatPrice, fullDay, genericZoneName, monthTitle, timeZoneName, weekdayNames, whenOf, zonesDiffer } from './format';

const fallback = (id: string) => `Counselor ${id}`;

describe('booking words', () => {
  it('dates: long style in English, short in Japanese', () => {
    expect(formatDay('2025-03-05', 'en')).toBe('March 5, 2025');
    expect(formatDay('2025-03-05', 'ja')).toBe('2025/03/05');
    expect(fullDay('2025-03-05', 'en')).toBe('Wednesday, March 5, 2025');
    expect(fullDay('2025-03-05', 'ja')).toBe('2025年3月5日水曜日');
    expect(monthTitle('2025-03-01', 'en')).toBe('March 2025');
    expect(monthTitle('2025-03-01', 'ja')).toBe('2025年3月');
    expect(weekdayNames('en')[0]).toBe('Sun');
    expect(weekdayNames('ja')).toEqual(['日', '月', '火', '水', '木', '金', '土']);
  });

  it("names the clinic's time zone", () => {
    expect(timeZoneName('Asia/Tokyo', 'en')).toBe('Japan Standard Time');
    expect(timeZoneName('Asia/Tokyo', 'ja')).toBe('日本標準時');
    expect(timeZoneName('Not/AZone', 'en')).toBe('Not/AZone');
  });

  it('prices', () => {
    expect(formatPrice({ amount: 16500, currency: 'JPY' }, 'en')).toBe('¥16,500');
    expect(formatPrice({ amount: 16500, currency: 'JPY' }, 'ja')).toBe('16,500円');
  });

  it('counselors: a name from the clinic when it ever has one, else the label of the id', () => {
    expect(counselorName('c-sato', 'en', null, fallback)).toBe('Counselor c-sato');
    const listed = { counselors: [{ id: 'c-sato', name: { ja: '佐藤 花子', en: 'Hanako Sato' } }] };
    expect(counselorName('c-sato', 'ja', listed, fallback)).toBe('佐藤 花子');
    expect(counselorName('c-brown', 'en', listed, fallback)).toBe('Counselor c-brown');
    expect(counselorName('c-sato', 'en', { counselors: { 'c-sato': 'Sato' } }, fallback)).toBe('Sato');
  });
});

describe('times for the patient: the clinic zone and the person\'s own', () => {
  const tokyo = 'Asia/Tokyo';

  it('a person in Los Angeles sees the day before, with weekdays, across the date line', () => {
    const en = whenOf('2026-12-03', '09:00', tokyo, 'en', 'America/Los_Angeles');
    expect(en.clinic).toBe('Thu, Dec 3, 09:00 Japan Standard Time');
    expect(en.person).toBe('Wed, Dec 2, 4:00 PM Pacific Time');
    expect(en.personShort).toBe('Wed, Dec 2, 4:00 PM');
    const ja = whenOf('2026-12-03', '09:00', tokyo, 'ja', 'America/Los_Angeles');
    expect(ja.clinic).toBe('12月3日(木) 09:00 日本標準時');
    expect(ja.person).toBe('12月2日(水) 16:00 米国太平洋時間');
  });

  it('summer time moves the person\'s time, not the clinic\'s', () => {
    expect(whenOf('2026-07-02', '09:00', tokyo, 'en', 'America/Los_Angeles').person).toBe('Wed, Jul 1, 5:00 PM Pacific Time');
  });

  it('a person in Tokyo (or in a zone with the same clock) sees one time only', () => {
    expect(whenOf('2026-12-03', '09:00', tokyo, 'ja', tokyo)).toEqual({ clinic: '12月3日(木) 09:00 日本標準時', person: null, personShort: null });
    expect(whenOf('2026-12-03', '09:00', tokyo, 'en', 'Asia/Seoul').person).toBeNull();
    expect(zonesDiffer(tokyo, tokyo)).toBe(false);
    expect(zonesDiffer(tokyo, 'America/Los_Angeles')).toBe(true);
  });

  it('a person in London: the same day, in the early morning', () => {
    const when = whenOf('2026-12-03', '09:00', tokyo, 'en', 'Europe/London');
    expect(when.person).toBe('Thu, Dec 3, 12:00 AM United Kingdom Time');
    expect(whenOf('2026-12-03', '15:30', tokyo, 'ja', 'Europe/London').person).toBe('12月3日(木) 6:30 イギリス時間');
  });

  it('the browser\'s zone is the person\'s unless given; an unknown zone leaves the clinic\'s time alone', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    try {
      expect(browserZone()).toBe('America/Los_Angeles');
      expect(whenOf('2026-12-03', '09:00', tokyo, 'en').person).toBe('Wed, Dec 2, 4:00 PM Pacific Time');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(whenOf('2026-12-03', '09:00', tokyo, 'en', 'Not/AZone').person).toBeNull();
    expect(whenOf('2026-12-03', 'soon', tokyo, 'en', 'Europe/London')).toEqual({ clinic: '2026-12-03 soon', person: null, personShort: null });
    expect(genericZoneName('America/Los_Angeles', 'en')).toBe('Pacific Time');
  });
});
