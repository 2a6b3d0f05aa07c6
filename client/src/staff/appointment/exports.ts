/**
 * The FHIR exports of the appointment page as files (docs/protocol.md "Staff reading and
 * acting"): `GET /fhir/QuestionnaireResponse/{appointmentId}` (audited on the server as
 * `intake.export`) and `GET /fhir/Questionnaire/{serviceId}`, authenticated like the callable
 * client (the session cookie, and the bearer token when the page holds one), saved through a
 * temporary object URL so that the health data never sits in a URL or a cache.
 */
import { getToken } from '../../auth/token';
import type { Locale } from '../../i18n/locale';
import { codeForHttpStatus } from '../../contract';
import { FunctionsError } from '../../realtime';

export type FhirExport = 'QuestionnaireResponse' | 'Questionnaire';

export function exportUrl(kind: FhirExport, id: string, locale: Locale): string {
  return `/fhir/${kind}/${encodeURIComponent(id)}?${new URLSearchParams({ locale }).toString()}`;
}

/** A file name that says what it holds: "questionnaire-response-<id>.json". */
export function exportFileName(kind: FhirExport, id: string): string {
  const safe = id.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${kind === 'Questionnaire' ? 'questionnaire' : 'questionnaire-response'}-${safe}.fhir.json`;
}

/** Fetches the resource; a refusal (an OperationOutcome) is thrown as a FunctionsError. */
export async function fetchExport(kind: FhirExport, id: string, locale: Locale): Promise<Blob> {
  const headers: Record<string, string> = { Accept: 'application/fhir+json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(exportUrl(kind, id, locale), { headers, credentials: 'include', cache: 'no-store' });
  } catch {
    throw new FunctionsError('unavailable', 'Network request failed.');
  }
  if (!response.ok) throw new FunctionsError(codeForHttpStatus(response.status), `HTTP ${String(response.status)}`);
  return new Blob([await response.text()], { type: 'application/fhir+json' });
}

/** Offers a blob to the browser as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 0);
}
