import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

/**
 * "Returning to the start page in N seconds", with a link to go at once: counts down each
 * second and navigates to `to` (the start page by default) at zero. Used after a message is
 * sent (/contact-confirmation) and after a booking is confirmed (/b/confirmed).
 *
 * The changing number is a `timer` (not announced every second); the sentence is read once.
 */
export function ReturnHomeCountdown({ seconds, to = '/' }: { seconds: number; to?: string }) {
  const { t } = useTranslation('screens');
  const navigate = useNavigate();
  const [left, setLeft] = useState(Math.max(0, Math.floor(seconds)));

  useEffect(() => {
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
  }, [left, navigate, to]);

  return (
    <p className="return-home">
      <span role="timer" aria-live="off">
        {t('returnHome.countdown', { count: left })}
      </span>{' '}
      <Link to={to}>{t('returnHome.goNow')}</Link>
    </p>
  );
}
