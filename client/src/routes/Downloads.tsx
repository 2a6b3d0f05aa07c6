/**
 * /downloads/:clinicId/:docId/:locale: one clinic document (docs/protocol.md "Clinic
 * documents"). Its metadata (`GET /files/.../metadata`) gives the name, size, type and date
 * shown (its title, when the clinic gave one); the link downloads `/files/...` (an attachment).
 * A document that does not exist shows the not-found page; one the clinic retired (410) says
 * plainly that it is no longer available.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Loading } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { formatDate } from '../i18n/format';
import type { Locale } from '../i18n/locale';
import { codeForHttpStatus } from '../contract';
import { errorMessageKey, FunctionsError } from '../realtime';
import { errorFromWire } from '../realtime/errors';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import NotFound from './NotFound';
import { isRecord } from '../isRecord';
import { ErrorText } from '../components/FieldParts';

/** The part of the stored-file metadata (docs/product.md "Records and their fields") this page shows. */
export interface FileMetadata {
  name: string;
  title: string | null;
  size: number;
  contentType: string | null;
  contentLanguage: string | null;
  updated: string | null;
}

const optionalText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function parseMetadata(body: unknown): FileMetadata | null {
  const data = isRecord(body) ? body.data : null;
  if (!isRecord(data) || typeof data.name !== 'string') return null;
  const size = typeof data.size === 'number' ? data.size : Number(data.size);
  if (!Number.isFinite(size) || size < 0) return null;
  const custom = isRecord(data.customMetadata) ? data.customMetadata : {};
  return {
    name: data.name.split('/').pop() ?? data.name,
    title: optionalText(custom.title),
    size,
    contentType: optionalText(data.contentType),
    contentLanguage: optionalText(data.contentLanguage),
    updated: optionalText(data.updated) ?? optionalText(data.timeCreated),
  };
}

const encodedParts = (clinicId: string, docId: string, locale: string) => [clinicId, docId, locale].map(encodeURIComponent).join('/');

/** The file's URL: each part encoded. */
export function fileUrl(clinicId: string, docId: string, locale: string): string {
  return `/files/${encodedParts(clinicId, docId, locale)}`;
}

/** This page's path for a document. */
export function downloadsPath(clinicId: string, docId: string, locale: string): string {
  return `/downloads/${encodedParts(clinicId, docId, locale)}`;
}

/** 1234 -> "1.2 KB" ("1.2 KB" in ja too; bytes below 1 KB), in the locale's number format. */
export function formatSize(bytes: number, locale: Locale): string {
  const units = [
    ['byte', 1],
    ['kilobyte', 1024],
    ['megabyte', 1024 ** 2],
    ['gigabyte', 1024 ** 3],
  ] as const;
  let chosen: (typeof units)[number] = units[0];
  for (const unit of units) if (bytes >= unit[1]) chosen = unit;
  const [unit, factor] = chosen;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: unit === 'byte' ? 0 : 1,
  }).format(bytes / factor);
}

export type Kind = 'pdf' | 'text' | 'word' | 'image' | 'other';

export function kindOf(contentType: string | null): Kind {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/')) return 'text';
  if (type.includes('wordprocessingml') || type === 'application/msword') return 'word';
  if (type.startsWith('image/')) return 'image';
  return 'other';
}

type Load =
  | { status: 'loading'; key: string }
  | { status: 'ready'; key: string; file: FileMetadata }
  | { status: 'missing'; key: string }
  | { status: 'retired'; key: string }
  | { status: 'failed'; key: string; error: unknown };

/** HTTP 410: the clinic retired the document (docs/protocol.md "Clinic documents"). */
const GONE = 410;

export async function loadMetadata(url: string, signal: AbortSignal): Promise<FileMetadata | 'missing' | 'retired'> {
  let response: Response;
  try {
    response = await fetch(`${url}/metadata`, { signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new FunctionsError('unavailable', 'Network request failed.');
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 404) return 'missing';
  if (response.status === GONE) return 'retired';
  if (!response.ok) throw errorFromWire(body, response.status) ?? new FunctionsError(codeForHttpStatus(response.status), 'HTTP error');
  const file = parseMetadata(body);
  if (file === null) throw new FunctionsError('internal', 'Response is missing data field.');
  return file;
}

export default function Downloads() {
  const { t } = useTranslation(['screens', 'routes', 'errors']);
  const locale = useAppStore(selectLocale);
  const { clinicId = '', docId = '', locale: docLocale = '' } = useParams();
  const url = fileUrl(clinicId, docId, docLocale);
  const [attempt, setAttempt] = useState(0);
  const key = `${url}#${String(attempt)}`;
  const [load, setLoad] = useState<Load>({ status: 'loading', key });

  useEffect(() => {
    const controller = new AbortController();
    loadMetadata(url, controller.signal).then(
      (result) => {
        setLoad(typeof result === 'string' ? { status: result, key } : { status: 'ready', key, file: result });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', key, error });
      },
    );
    return () => {
      controller.abort();
    };
  }, [url, key]);

  // A load of another document (or attempt) is not this one's: loading until it answers.
  const current: Load = load.key === key ? load : { status: 'loading', key };
  if (current.status === 'missing') return <NotFound />;

  const typeLabel = (contentType: string | null) => {
    const kind = kindOf(contentType);
    return kind === 'other' && contentType !== null ? contentType : t(`screens:downloads.kinds.${kind}`);
  };

  return (
    <Screen title={t('routes:downloads.title')} lead={t('screens:downloads.lead')}>
      {current.status === 'loading' && <Loading />}
      {current.status === 'retired' && (
        <p className="notice" role="status">
          {t('screens:clinicDocuments.retired')}
        </p>
      )}
      {current.status === 'failed' && (
        <div className="card">
          <ErrorText>{t(errorMessageKey(current.error))}</ErrorText>
          <div className="actions">
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setAttempt((n) => n + 1);
              }}
            >
              {t('screens:downloads.retry')}
            </button>
          </div>
        </div>
      )}
      {current.status === 'ready' && (
        <div className="card download-card">
          <h2>{current.file.title ?? current.file.name}</h2>
          <dl className="file-facts">
            <div>
              <dt>{t('screens:downloads.size')}</dt>
              <dd>{formatSize(current.file.size, locale)}</dd>
            </div>
            <div>
              <dt>{t('screens:downloads.type')}</dt>
              <dd>{typeLabel(current.file.contentType)}</dd>
            </div>
            {current.file.updated !== null && formatDate(current.file.updated, locale) !== '' && (
              <div>
                <dt>{t('screens:downloads.updated')}</dt>
                <dd>
                  <time dateTime={current.file.updated}>{formatDate(current.file.updated, locale)}</time>
                </dd>
              </div>
            )}
          </dl>
          <p>
            <a className="download-link" href={url} download={current.file.name}>
              {t('screens:downloads.download', { name: current.file.name })}
            </a>
          </p>
        </div>
      )}
    </Screen>
  );
}
