/**
 * The page of a booking mail's signed link, before it shows anything (auth/linkSession.ts):
 * the token is exchanged at `/auth/link` for a session scoped to the link, then dropped from
 * the address. A link that no longer works (moved, cancelled, expired, altered) offers the
 * normal e-mail sign-in, which then continues to the same page; a full session of the owner
 * just goes on; a link of another account says so and offers to sign out first.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { Loading } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser } from '../store/selectors';
import { withoutToken } from './linkSession';
import { NEXT_PARAM } from './nextPath';
import { auth } from './session';
import { openMailLink, type MailLinkBody } from './signIn';

type Failure = 'invalid' | 'otherAccount' | 'unavailable';

function failureOf(error: unknown): Failure {
  const reason = error instanceof FunctionsError && typeof error.details === 'object' && error.details !== null ? (error.details as { reason?: unknown }).reason : null;
  if (reason === 'other-account') return 'otherAccount';
  if (reason === 'booking-link-invalid') return 'invalid';
  return 'unavailable';
}

export function MailLinkOpening({ link }: { link: MailLinkBody }) {
  const { t } = useTranslation('booking');
  const location = useLocation();
  const user = useAppStore(selectAuthUser);
  const target = withoutToken(location.pathname, location.search);
  const [outcome, setOutcome] = useState<'opened' | Failure | null>(null);
  const [attempt, setAttempt] = useState(0);
  const started = useRef<string | null>(null);

  useEffect(() => {
    const key = `${link.token}:${String(attempt)}`;
    if (started.current === key) return; // StrictMode runs effects twice: one exchange
    started.current = key;
    openMailLink(auth, link).then(
      () => {
        setOutcome('opened');
      },
      (error: unknown) => {
        setOutcome(failureOf(error));
      },
    );
  }, [link, attempt]);

  // A full session needs no link: an old one of the owner's mails just opens the page.
  const fullSession = user !== null && user.link === undefined;
  if (outcome === 'opened' || (outcome === 'invalid' && fullSession)) return <Navigate to={target} replace />;
  if (outcome === null) return <Loading />;
  const signIn = `/?${new URLSearchParams({ [NEXT_PARAM]: target }).toString()}`;
  const signOutAndRetry = () => {
    void auth.signOut().then(() => {
      setOutcome(null);
      setAttempt((n) => n + 1);
    });
  };
  return (
    <Screen title={t('mailLink.title')}>
      <p role="alert" className="notice">
        {t(`mailLink.${outcome}`)}
      </p>
      <p>
        {outcome === 'otherAccount' ? (
          <button type="button" className="secondary" onClick={signOutAndRetry}>
            {t('mailLink.signOutAndOpen')}
          </button>
        ) : (
          <Link to={signIn}>{t('mailLink.signIn')}</Link>
        )}
      </p>
    </Screen>
  );
}
