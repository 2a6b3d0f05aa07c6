import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { analytics } from '../analytics';
import {
  emailForSignIn,
  forgetEmailForSignIn,
  isEmailMismatch,
  isLinkInvalid,
  isProviderStaff,
  nextForSignIn,
  signInEntry,
} from '../auth/emailLink';
import { auth } from '../auth/session';
import { confirmEmailLink } from '../auth/signIn';
import { CheckInbox } from '../auth/CheckInbox';
import { EmailForm } from '../auth/EmailForm';
import { nextPathAfterSignIn } from '../auth/nextPath';
import { isStaff, STAFF_HOME } from '../auth/roles';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { useSignInLink } from '../auth/useSignInLink';
import { errorMessageKey } from '../realtime';
import { ErrorText } from '../components/FieldParts';

type Phase =
  | { kind: 'confirming' }
  /**
   * The link was opened where the address is not remembered: ask for it (docs/product.md "Messages people see");
   * `mismatched` is the address the server just refused as not the link's (the link still works).
   */
  | { kind: 'reenter'; mismatched?: string }
  /** Used, expired, spent or missing link: start a new session (docs/product.md "The booking flow"). */
  | { kind: 'invalid'; email: string | null }
  /** Anything else (offline, server error): the link may still work; try again. */
  | { kind: 'failed'; email: string; errorKey: ReturnType<typeof errorMessageKey> }
  /** A staff member of a clinic with its own identity provider: they sign in there. */
  | { kind: 'useProvider' };

/**
 * `/login-confirmation?token=...`: signs in with the link's token and the address remembered
 * on this device (or typed again), then continues to `?next=` or the first booking step (the
 * board, for staff). The
 * token leaves the address bar (history.replaceState) once it has been used.
 */
export default function LoginConfirmation() {
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [token] = useState(() => search.get('token'));
  const [remembered] = useState(emailForSignIn);
  /** Where the person was going when they asked for this link (read before it is forgotten). */
  const [rememberedNext] = useState(nextForSignIn);
  const [phase, setPhase] = useState<Phase>(() =>
    token === null ? { kind: 'invalid', email: remembered } : remembered === null ? { kind: 'reenter' } : { kind: 'confirming' },
  );
  const [entry] = useState(signInEntry);
  const link = useSignInLink(entry);
  const started = useRef(false);

  const clearToken = () => {
    if (!search.has('token')) return;
    const rest = new URLSearchParams(search);
    rest.delete('token');
    const query = rest.toString();
    void navigate({ search: query === '' ? '' : `?${query}` }, { replace: true });
  };

  /** POST /auth/confirm with the link's token; the phase must already be 'confirming'. */
  const signIn = (email: string, linkToken: string) =>
    confirmEmailLink(auth, email, linkToken).then(
      (user) => {
        forgetEmailForSignIn();
        analytics.logLogin(window.location.hostname);
        // Staff start on their board: the booking steps are for patients.
        void navigate(nextPathAfterSignIn(search, isStaff(user) ? STAFF_HOME : undefined, rememberedNext), { replace: true });
      },
      (error: unknown) => {
        if (isEmailMismatch(error)) {
          setPhase({ kind: 'reenter', mismatched: email });
        } else if (isProviderStaff(error)) {
          clearToken();
          setPhase({ kind: 'useProvider' });
        } else if (isLinkInvalid(error)) {
          clearToken();
          setPhase({ kind: 'invalid', email });
        } else {
          setPhase({ kind: 'failed', email, errorKey: errorMessageKey(error) });
        }
      },
    );

  const confirm = async (email: string) => {
    if (token === null) return;
    setPhase({ kind: 'confirming' });
    await signIn(email, token);
  };

  useEffect(() => {
    // Once, even when React runs effects twice (development): a link works only once.
    if (started.current) return;
    started.current = true;
    if (token !== null && remembered !== null) void signIn(remembered, token);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, on arrival with the link
  }, []);

  let content;
  if (phase.kind === 'confirming') {
    content = (
      <p role="status" className="loading">
        <span className="spinner" aria-hidden="true" /> {t('routes:loginConfirmation.signingIn')}
      </p>
    );
  } else if (phase.kind === 'reenter') {
    content = (
      <EmailForm
        submitLabel={t('routes:loginConfirmation.confirm')}
        onSubmit={confirm}
        defaultEmail={phase.mismatched ?? ''}
        error={phase.mismatched === undefined ? null : t('errors:emailMismatch')}
      >
        <p className="hint">{t('routes:loginConfirmation.otherDevice')}</p>
        <p>{t('errors:reenterEmail')}</p>
      </EmailForm>
    );
  } else if (phase.kind === 'useProvider') {
    content = (
      <div className="card">
        <ErrorText>{t('errors:useIdentityProvider')}</ErrorText>
        <p>
          <Link to={`/?${new URLSearchParams({ next: STAFF_HOME }).toString()}`}>{t('routes:loginConfirmation.backToLogin')}</Link>
        </p>
      </div>
    );
  } else if (phase.kind === 'failed') {
    content = (
      <div className="card">
        <ErrorText>{t(phase.errorKey)}</ErrorText>
        <button type="button" className="primary" onClick={() => void confirm(phase.email)}>
          {t('routes:loginConfirmation.retry')}
        </button>
      </div>
    );
  } else if (link.sentTo !== null) {
    content = (
      <CheckInbox
        email={link.sentTo}
        resent={link.resent}
        busy={link.busy}
        error={link.error === null ? null : t(link.error)}
        onResend={link.resend}
      />
    );
  } else {
    const { email } = phase;
    content = (
      <div className="card">
        <ErrorText>{t('errors:authLinkInvalid')}</ErrorText>
        {link.error !== null && <ErrorText>{t(link.error)}</ErrorText>}
        {email === null ? (
          <p>
            <Link to="/">{t('routes:loginConfirmation.backToLogin')}</Link>
          </p>
        ) : (
          <button type="button" className="primary" disabled={link.busy} onClick={() => void link.send(email)}>
            {t('routes:loginConfirmation.resend')}
          </button>
        )}
      </div>
    );
  }
  return <ScreenPlaceholder screen="loginConfirmation">{content}</ScreenPlaceholder>;
}
