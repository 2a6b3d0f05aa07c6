import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../store';
import { selectSaveStatus } from '../store/selectors';
import type { LostCause } from './connectivity';
import './presence.css';

export interface ConnectionNoticeProps {
  /** This device is offline, or the clinic's server cannot be reached. */
  cause: LostCause;
  /** A retry is under way: the button shows a spinner (and stays focusable). */
  retrying: boolean;
  onRetry: () => void;
}

/**
 * The connection is lost (docs/product.md "Behaviours across screens" and "Messages people
 * see"): a bar fixed at the bottom of the window that says what is known (this device is
 * offline, or it is online and the clinic's server does not answer), announced once, with
 * "Retry". It cannot be dismissed and goes away by itself when the connection is back. It
 * blocks nothing: the person keeps typing, and answers saved meanwhile wait in the realtime
 * outbox; the bar says they will be sent only while some are waiting (which is then true as
 * long as the page stays open). The space it covers is added below the page.
 */
export function ConnectionNotice({ cause, retrying, onRetry }: ConnectionNoticeProps) {
  const { t } = useTranslation('screens');
  const waiting = useAppStore(selectSaveStatus) === 'offline';
  const titleId = useId();
  const noticeRef = useRef<HTMLElement>(null);
  const [height, setHeight] = useState(0);

  // The page gets room below its end as tall as the bar, so that nothing stays under it.
  useEffect(() => {
    const notice = noticeRef.current;
    if (notice === null || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      setHeight(notice.offsetHeight);
      // A field focused while typing is scrolled above the bar, not under it.
      root.style.scrollPaddingBottom = `${String(notice.offsetHeight)}px`;
    });
    observer.observe(notice);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingBottom = '';
    };
  }, []);

  return (
    <>
      <div className="connection-notice-space" aria-hidden="true" style={{ height }} />
      <section ref={noticeRef} className="connection-notice" aria-labelledby={titleId}>
        <div role="alert" className="connection-notice-text">
          <h2 id={titleId}>{cause === 'browser' ? t('offline.title') : t('offline.serverTitle')}</h2>
          <p>{cause === 'browser' ? t('offline.body') : t('offline.serverBody')}</p>
          {waiting && <p>{t('offline.queued')}</p>}
        </div>
        <div className="actions">
          {/* aria-disabled, not disabled: a disabled button would drop the focus. */}
          <button
            type="button"
            className="primary"
            aria-disabled={retrying}
            onClick={() => {
              if (!retrying) onRetry();
            }}
          >
            {retrying && <span className="spinner" aria-hidden="true" />}
            {t('offline.retry')}
          </button>
          <span role="status">{retrying ? t('offline.checking') : ''}</span>
        </div>
      </section>
    </>
  );
}
