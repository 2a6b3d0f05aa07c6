/**
 * A counselor's private calendar address (docs/protocol.md, "Counselor calendar feeds"), on the
 * staff board: whether one exists (`staff-calendarFeed-read`), and a button that makes a new one
 * (`staff-calendarFeed-rotate`), asking first when it would replace an address in use. The
 * server keeps only a hash of the key, so the address can be shown only in the reply that made
 * it: it is shown then, with a copy button, and never again. A counselor manages their own; a
 * clinic_admin picks any counselor of the clinic.
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { staffRole } from '../auth/roles';
import { counselorName } from '../booking/format';
import { ErrorText } from '../components/FieldParts';
import type { Locale } from '../i18n/locale';
import { isRecord } from '../isRecord';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser, selectLocale } from '../store/selectors';
import './calendarFeed.css';

export const FEED_READ = 'staff-calendarFeed-read';
export const FEED_ROTATE = 'staff-calendarFeed-rotate';

interface FeedState {
  exists: boolean;
  created: string | null;
}

function parseFeed(data: unknown): FeedState | null {
  if (!isRecord(data) || typeof data.exists !== 'boolean') return null;
  return { exists: data.exists, created: typeof data.created === 'string' ? data.created : null };
}

function madeOn(iso: string | null, locale: Locale): string {
  const date = iso === null ? null : new Date(iso);
  if (date === null || Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(date);
}

/** The clinic's counselors (`clinic-read`), for a clinic_admin's choice. */
function useCounselors(clinicId: string | null, wanted: boolean) {
  const [clinic, setClinic] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    if (!wanted || clinicId === null) return;
    let live = true;
    callFunction('clinic-read', { id: clinicId }).then(
      (data) => {
        if (live && isRecord(data)) setClinic(data);
      },
      () => undefined, // the choice stays empty; the board says what failed
    );
    return () => {
      live = false;
    };
  }, [clinicId, wanted]);
  const ids = Array.isArray(clinic?.counselors)
    ? clinic.counselors.flatMap((c: unknown) => (isRecord(c) && typeof c.id === 'string' ? [c.id] : []))
    : [];
  return { clinic, ids };
}

function FeedAddress({ url }: { url: string }) {
  const { t } = useTranslation('staff');
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(url).then(
      () => {
        setCopied('yes');
      },
      () => {
        setCopied('no');
      },
    );
  };
  return (
    <div className="staff-feed-address">
      <label htmlFor={id}>{t('calendarFeed.addressLabel')}</label>
      <input
        id={id}
        type="text"
        readOnly
        value={url}
        spellCheck={false}
        onFocus={(event) => {
          event.currentTarget.select();
        }}
      />
      <button type="button" className="secondary" onClick={copy}>
        {t('calendarFeed.copy')}
      </button>
      <span role="status">{copied === null ? '' : t(copied === 'yes' ? 'calendarFeed.copied' : 'calendarFeed.copyFailed')}</span>
      <p className="hint">{t('calendarFeed.addressHint')}</p>
    </div>
  );
}

function Feed({ counselorId }: { counselorId: string }) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const [feed, setFeed] = useState<FeedState | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    callFunction(FEED_READ, { counselorId }).then(
      (data) => {
        if (!live) return;
        const parsed = parseFeed(data);
        if (parsed === null) setError(t('errors:unknown'));
        else setFeed(parsed);
      },
      (failure: unknown) => {
        if (live) setError(t(errorMessageKey(failure)));
      },
    );
    return () => {
      live = false;
    };
  }, [counselorId, t]);

  const rotate = () => {
    setConfirming(false);
    setBusy(true);
    setError(null);
    // Once: a retry would make (and throw away) another address.
    callFunction(FEED_ROTATE, { counselorId }, { maxAttempts: 1 }).then(
      (data) => {
        setBusy(false);
        const parsed = parseFeed(data);
        if (parsed === null || !isRecord(data) || typeof data.url !== 'string') {
          setError(t('errors:unknown'));
          return;
        }
        setFeed(parsed);
        setUrl(data.url);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(t(errorMessageKey(failure)));
      },
    );
  };

  const inUse = feed?.exists === true;
  return (
    <>
      {feed === null && error === null && (
        <p role="status" className="loading">
          {t('calendarFeed.loading')}
        </p>
      )}
      {feed !== null && url === null && (
        <p>{inUse ? t('calendarFeed.exists', { date: madeOn(feed.created, locale) }) : t('calendarFeed.none')}</p>
      )}
      {url !== null && <FeedAddress url={url} />}
      {error !== null && <ErrorText>{error}</ErrorText>}
      {feed !== null && !confirming && (
        <p>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => {
              if (inUse) setConfirming(true);
              else rotate();
            }}
          >
            {inUse ? t('calendarFeed.rotate') : t('calendarFeed.create')}
          </button>
        </p>
      )}
      {confirming && (
        <div role="group" aria-labelledby={`feed-confirm-${counselorId}`} className="staff-feed-confirm">
          <p id={`feed-confirm-${counselorId}`}>{t('calendarFeed.confirm')}</p>
          <button type="button" className="primary" onClick={rotate}>
            {t('calendarFeed.confirmRotate')}
          </button>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setConfirming(false);
            }}
          >
            {t('calendarFeed.cancel')}
          </button>
        </div>
      )}
    </>
  );
}

export default function CalendarFeed() {
  const { t } = useTranslation('staff');
  const user = useAppStore(selectAuthUser);
  const locale = useAppStore(selectLocale);
  const role = staffRole(user?.role);
  const own = role === 'counselor' ? (user?.counselorId ?? null) : null;
  const { clinic, ids } = useCounselors(user?.clinicId ?? null, role === 'clinic_admin');
  const [chosen, setChosen] = useState('');
  const selectId = useId();
  if (role === null || (role === 'counselor' && own === null)) return null;
  const counselorId = own ?? (chosen === '' ? null : chosen);
  return (
    <section className="card staff-calendar-feed" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title">{t('calendarFeed.title')}</h2>
      <p>{t('calendarFeed.lead')}</p>
      {role === 'clinic_admin' && (
        <p>
          <label htmlFor={selectId}>{t('calendarFeed.counselor')}</label>{' '}
          <select
            id={selectId}
            value={chosen}
            onChange={(event) => {
              setChosen(event.target.value);
            }}
          >
            <option value="">{t('calendarFeed.chooseCounselor')}</option>
            {ids.map((id) => (
              <option key={id} value={id}>
                {counselorName(id, locale, clinic, (value) => value)}
              </option>
            ))}
          </select>
        </p>
      )}
      {counselorId !== null && <Feed key={counselorId} counselorId={counselorId} />}
    </section>
  );
}
