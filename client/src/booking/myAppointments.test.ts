import { describe, expect, it } from 'vitest';
import { clockIn, parseMine, shownAppointment, webUrl } from './myAppointments';

const entry = {
  id: 'a2',
  clinicId: 'demo-clinic',
  serviceId: 'prenatal-b2c',
  status: 'confirmed',
  date: '2026-12-03',
  time: '09:00',
  timezone: 'Asia/Tokyo',
  personTimezone: null,
  start: '2026-12-03T09:00:00+09:00',
  end: '2026-12-03T10:00:00+09:00',
  counselorId: 'c-sato',
  payment: { amount: 16500, currency: 'jpy', status: 'paid', receiptUrl: 'javascript:alert(1)' },
  cancellation: null,
  joinUrl: 'https://meet.jit.si/gc-1',
  created: '2026-11-01T00:00:00Z',
};

describe('parseMine', () => {
  it('reads the reply, leaving out entries without an id or status', () => {
    const [first, ...rest] = parseMine({ appointments: [entry, { id: 'x' }, 'junk', { ...entry, id: 'a1', status: 'completed' }] });
    expect(first?.payment).toEqual({ amount: 16500, currency: 'JPY', status: 'paid', refundAmount: null, receiptUrl: null });
    expect(first?.joinUrl).toBe('https://meet.jit.si/gc-1');
    expect(rest.map((e) => e.id)).toEqual(['a1']);
    expect(rest[0]?.joinUrl).toBeNull(); // not confirmed: no join link, whatever the reply says
    expect(parseMine(null)).toEqual([]);
  });

  it('opens only https links', () => {
    expect(webUrl('https://pay.example/r/1')).toBe('https://pay.example/r/1');
    expect(webUrl('http://pay.example')).toBeNull();
    expect(webUrl('javascript:alert(1)')).toBeNull();
  });
});

describe('shownAppointment', () => {
  const list = parseMine({ appointments: [{ ...entry, id: 'new', status: 'draft' }, entry, { ...entry, id: 'old', status: 'completed' }] });
  it('is the one in the address, else the current, else the newest', () => {
    expect(shownAppointment(list, 'old', 'a2')?.id).toBe('old');
    expect(shownAppointment(list, 'nobody', 'a2')).toBeNull();
    expect(shownAppointment(list, null, 'a2')?.id).toBe('a2');
    expect(shownAppointment(list, null, null)?.id).toBe('new');
    expect(shownAppointment([], null, null)).toBeNull();
  });
});

describe('clockIn', () => {
  it('gives the wall time in a zone', () => {
    expect(clockIn('2026-12-03T10:00:00+09:00', 'Asia/Tokyo', 'en')).toBe('10:00');
    expect(clockIn('2026-12-03T10:00:00+09:00', 'America/Los_Angeles', 'en', 'person')).toBe('5:00 PM');
    expect(clockIn(null, 'Asia/Tokyo', 'en')).toBeNull();
    expect(clockIn('x', 'Asia/Tokyo', 'en')).toBeNull();
  });
});
