import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

/**
 * "Returning to the start page in N seconds", with a link to go at once: counts down each
 * second and navigates to `to` (the start page by default) at zero. Used after a message is
 * sent (/contact-confirmation) and after a booking is confirmed (/b/confirmed).
 *
 * The changing number is a `timer` (not announced every second). "Stay on this page" stops the
 * countdown (a time limit the person can turn off, WCAG 2.2.1) and moves focus to the link.
 */
export function ReturnHomeCountdown({ seconds, to = '/' }: { seconds: number; to?: string }) {
  const { t } = useTranslation('screens');
  const navigate = useNavigate();
  const [left, setLeft] = useState(Math.max(0, Math.floor(seconds)));
  const [stopped, setStopped] = useState(false);
  const linkRef = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    if (stopped) return;
    if (left <= 0) {
      void navigate(to, { replace: true });
      return;
    }
    const id = window.setTimeout(() => {
      setLeft((value) => value - 1);
    }, 1000);
    return () => {
      window.clearTimeout(id);
    };
  }, [left, stopped, navigate, to]);

  useEffect(() => {
    if (stopped) linkRef.current?.focus();
  }, [stopped]);

  return (
    <div className="return-home">
      <p>
        {stopped ? (
          t('returnHome.stopped')
        ) : (
          <span role="timer" aria-live="off">
            {t('returnHome.countdown', { count: left })}
          </span>
        )}
      </p>
      <p className="actions">
        <Link ref={linkRef} to={to}>
          {t('returnHome.goNow')}
        </Link>
        {!stopped && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setStopped(true);
            }}
          >
            {t('returnHome.stay')}
          </button>
        )}
      </p>
    </div>
  );
}
