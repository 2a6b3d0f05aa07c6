import { describe, expect, it } from 'vitest';
import { counselorName, formatDay, formatPrice, fullDay, monthTitle, timeZoneName, weekdayNames } from './format';

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
