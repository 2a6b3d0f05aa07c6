/**
 * The clinic documents' administration on the wire (docs/protocol.md "Clinic administration" /
 * "Clinic documents"): the list of `documents-read`, the upload (multipart, with its progress:
 * XMLHttpRequest, since fetch reports none for a request body) and the retirement, and the
 * refusals in words: the server names the field (`details.fields`) and, for the file and the
 * title, says why (`details.codes`), which the screen words in the person's language.
 */
import { getToken } from '../auth/token';
import { codeForHttpStatus, maxDocumentBytes } from '../contract';
import { isRecord } from '../isRecord';
import { FunctionsError } from '../realtime';
import { errorFromWire } from '../realtime/errors';

export interface ClinicDocument {
  docId: string;
  locale: string;
  title: string | null;
  name: string;
  contentType: string;
  size: number;
  updated: string | null;
  generation: number;
  retiredAt: string | null;
}

/** The documents the client's screens link to (docs/product.md "Clinic documents"). */
export const KNOWN_DOCUMENTS = ['consent-form', 'brochure'] as const;
export const DOCUMENT_LOCALES = ['ja', 'en'] as const;
/** What the file input offers (the server decides from the content). */
export const ACCEPTED_FILES = '.pdf,.png,.jpg,.jpeg,.txt,application/pdf,image/png,image/jpeg,text/plain';
export const MAX_TITLE_LENGTH = 120;
/** The id rule of every id (realtime/functions/inputs.py `Id`). */
export const DOC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function parseDocument(value: unknown): ClinicDocument | null {
  if (!isRecord(value)) return null;
  const { docId, locale, name, contentType, size, generation } = value;
  if (typeof docId !== 'string' || typeof locale !== 'string' || typeof name !== 'string') return null;
  if (typeof contentType !== 'string' || typeof size !== 'number' || typeof generation !== 'number') return null;
  return {
    docId,
    locale,
    title: text(value.title),
    name,
    contentType,
    size,
    updated: text(value.updated),
    generation,
    retiredAt: text(value.retiredAt),
  };
}

/** The reply of `documents-read`, or null when it is not one. */
export function parseDocuments(data: unknown): ClinicDocument[] | null {
  if (!isRecord(data) || !Array.isArray(data.documents)) return null;
  const parsed = data.documents.map(parseDocument);
  return parsed.every((entry): entry is ClinicDocument => entry !== null) ? parsed : null;
}

export function documentUrl(clinicId: string, docId: string, locale: string): string {
  return `/staff/documents/${[clinicId, docId, locale].map(encodeURIComponent).join('/')}`;
}

/** Why a file cannot be sent at all, before it is sent (the server checks again, and more). */
export type FileProblem = 'required' | 'empty' | 'tooLarge';

export function fileProblem(file: File | null): FileProblem | null {
  if (file === null) return 'required';
  if (file.size === 0) return 'empty';
  if (file.size > maxDocumentBytes) return 'tooLarge';
  return null;
}

export function titleProblem(title: string): 'required' | 'tooLong' | null {
  const trimmed = title.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > MAX_TITLE_LENGTH) return 'tooLong';
  return null;
}

export type FormField = 'docId' | 'locale' | 'title' | 'file';

/**
 * The field a refusal names and the key of its words (`documents.errors.<field>.<code>`), or
 * null when the refusal names none of the form's fields (then the error code's words).
 */
export function refusalOf(error: unknown): { field: FormField; code: string } | null {
  if (!(error instanceof FunctionsError) || !isRecord(error.details)) return null;
  const fields = isRecord(error.details.fields) ? error.details.fields : {};
  const codes = isRecord(error.details.codes) ? error.details.codes : {};
  for (const field of ['file', 'title', 'docId', 'locale'] as const) {
    if (field in fields) {
      const code = codes[field];
      return { field, code: typeof code === 'string' ? code : 'invalid' };
    }
  }
  return null;
}

function errorOf(status: number, body: unknown): FunctionsError {
  return errorFromWire(body, status) ?? new FunctionsError(codeForHttpStatus(status), `HTTP ${String(status)}`);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** The reply's document, or the refusal as a FunctionsError. */
function answer(status: number, body: unknown): ClinicDocument {
  if (status < 200 || status >= 300) throw errorOf(status, body);
  const document = parseDocument(isRecord(body) ? body.data : null);
  if (document === null) throw new FunctionsError('internal', 'Response is missing data field.');
  return document;
}

export interface Upload {
  clinicId: string;
  docId: string;
  locale: string;
  title: string;
  file: File;
  /** Called with 0..1 as the bytes leave. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** Upload or replace a document: its bearer token when the app has one, else the cookie. */
export function uploadDocument({ clinicId, docId, locale, title, file, onProgress, signal }: Upload): Promise<ClinicDocument> {
  const form = new FormData();
  form.append('title', title);
  form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', documentUrl(clinicId, docId, locale));
    request.withCredentials = true;
    const token = getToken();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      try {
        resolve(answer(request.status, parseJson(request.responseText)));
      } catch (error) {
        reject(error instanceof Error ? error : new FunctionsError('internal', 'Upload failed.'));
      }
    };
    request.onerror = () => {
      reject(new FunctionsError('unavailable', 'Network request failed.'));
    };
    request.onabort = () => {
      reject(new FunctionsError('cancelled', 'The upload was stopped.'));
    };
    signal?.addEventListener('abort', () => {
      request.abort();
    });
    request.send(form);
  });
}

/** Retire a document (an upload brings it back). */
export async function retireDocument(clinicId: string, docId: string, locale: string): Promise<ClinicDocument> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(`${documentUrl(clinicId, docId, locale)}/retire`, {
      method: 'POST',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'include',
    });
  } catch {
    throw new FunctionsError('unavailable', 'Network request failed.');
  }
  const body: unknown = await response.json().catch(() => null);
  return answer(response.status, body);
}
