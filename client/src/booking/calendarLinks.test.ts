import { describe, expect, it } from 'vitest';
import { compactUtc, googleCalendarUrl, icsPath, outlookCalendarUrl } from './calendarLinks';

const event = {
  title: 'がんの遺伝カウンセリング & more',
  start: '2026-12-03T09:00:00+09:00',
  end: '2026-12-03T10:00:00+09:00',
  joinUrl: 'https://meet.jit.si/gc-abc?x=1',
};

describe('calendar links', () => {
  it('write the instant in UTC', () => {
    expect(compactUtc('2026-12-03T09:00:00+09:00')).toBe('20261203T000000Z');
    expect(compactUtc('not a time')).toBeNull();
  });

  it('build a Google Calendar template with the time, title and join link', () => {
    const url = new URL(googleCalendarUrl(event) ?? '');
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe(event.title);
    expect(url.searchParams.get('dates')).toBe('20261203T000000Z/20261203T010000Z');
    expect(url.searchParams.get('location')).toBe(event.joinUrl);
  });

  it('build an Outlook compose deep link', () => {
    const url = new URL(outlookCalendarUrl(event) ?? '');
    expect(url.origin + url.pathname).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
    expect(url.searchParams.get('rru')).toBe('addevent');
    expect(url.searchParams.get('subject')).toBe(event.title);
    expect(url.searchParams.get('startdt')).toBe('2026-12-03T00:00:00Z');
    expect(url.searchParams.get('enddt')).toBe('2026-12-03T01:00:00Z');
    expect(url.searchParams.get('body')).toBe(event.joinUrl);
  });

  it('leave the join link out when there is none, and give up on unreadable times', () => {
    const bare = new URL(googleCalendarUrl({ ...event, joinUrl: null }) ?? '');
    expect(bare.searchParams.has('location')).toBe(false);
    expect(googleCalendarUrl({ ...event, start: '' })).toBeNull();
    expect(outlookCalendarUrl({ ...event, end: 'x' })).toBeNull();
  });

  it('name the owner-only .ics address', () => {
    expect(icsPath('a_1-b')).toBe('/calendar/appointments/a_1-b.ics');
  });
});
