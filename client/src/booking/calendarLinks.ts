/**
 * "Add to calendar" links of an appointment for Google Calendar and Outlook (on the web),
 * built from the appointment alone; Apple Calendar and every other program take the .ics
 * file the server gives the owner (`GET /calendar/appointments/{id}.ics`, docs/protocol.md
 * "My appointments"). Only the service's name, the time and the join link go into these
 * addresses: never anything from the questionnaire.
 */

export interface CalendarEvent {
  title: string;
  /** ISO-8601 instants with an offset (appointments-mine `start` / `end`). */
  start: string;
  end: string;
  /** The join link, when the appointment has one: the event's location and description. */
  joinUrl?: string | null;
}

export const GOOGLE_CALENDAR_URL = 'https://calendar.google.com/calendar/render';
export const OUTLOOK_CALENDAR_URL = 'https://outlook.live.com/calendar/0/deeplink/compose';

/** The server's .ics address of the person's own appointment (cookie or bearer). */
export function icsPath(appointmentId: string): string {
  return `/calendar/appointments/${encodeURIComponent(appointmentId)}.ics`;
}

/** "2026-12-03T09:00:00+09:00" -> "20261203T000000Z" (Google's UTC form), or null. */
export function compactUtc(iso: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** "2026-12-03T09:00:00+09:00" -> "2026-12-03T00:00:00Z" (what Outlook reads), or null. */
function utcIso(iso: string): string | null {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Google Calendar's "create event" template, or null when the times cannot be read. */
export function googleCalendarUrl(event: CalendarEvent): string | null {
  const start = compactUtc(event.start);
  const end = compactUtc(event.end);
  if (start === null || end === null) return null;
  const query = new URLSearchParams({ action: 'TEMPLATE', text: event.title, dates: `${start}/${end}` });
  if (event.joinUrl) {
    query.set('details', event.joinUrl);
    query.set('location', event.joinUrl);
  }
  return `${GOOGLE_CALENDAR_URL}?${query.toString()}`;
}

/** Outlook on the web's "new event" deep link, or null when the times cannot be read. */
export function outlookCalendarUrl(event: CalendarEvent): string | null {
  const start = utcIso(event.start);
  const end = utcIso(event.end);
  if (start === null || end === null) return null;
  const query = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: start,
    enddt: end,
  });
  if (event.joinUrl) {
    query.set('body', event.joinUrl);
    query.set('location', event.joinUrl);
  }
  return `${OUTLOOK_CALENDAR_URL}?${query.toString()}`;
}
