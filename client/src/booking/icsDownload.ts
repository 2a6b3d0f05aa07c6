/**
 * The owner's .ics file of an appointment (`GET /calendar/appointments/{id}.ics`),
 * authenticated like the callable client (the session cookie, and the bearer token when the
 * page holds one) and saved through a temporary object URL, like the staff's exports.
 */
import { getToken } from '../auth/token';
import { codeForHttpStatus } from '../contract';
import { FunctionsError } from '../realtime';
import { saveFile } from '../staff/appointment/exports';
import { icsPath } from './calendarLinks';

export const ICS_FILE_NAME = 'appointment.ics';

export async function downloadIcs(appointmentId: string): Promise<void> {
  const headers: Record<string, string> = { Accept: 'text/calendar' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(icsPath(appointmentId), { headers, credentials: 'include', cache: 'no-store' });
  } catch {
    throw new FunctionsError('unavailable', 'Network request failed.');
  }
  if (!response.ok) throw new FunctionsError(codeForHttpStatus(response.status), `HTTP ${String(response.status)}`);
  saveFile(new Blob([await response.text()], { type: 'text/calendar' }), ICS_FILE_NAME);
}
