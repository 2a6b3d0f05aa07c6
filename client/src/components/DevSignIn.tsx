import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { auth } from '../auth/session';
import { nextPathAfterSignIn } from './RequireAuth';

/**
 * Development only (rendered when import.meta.env.DEV): signs in through POST /dev/token until
 * the e-mail-link sign-in lands, then continues to `?next=` or the first booking step.
 */
export function DevSignIn() {
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = new FormData(event.currentTarget).get('email');
    if (typeof email !== 'string' || email === '') return;
    setBusy(true);
    setFailed(false);
    auth.signInWithDevToken(email).then(
      () => navigate(nextPathAfterSignIn(search)),
      () => {
        setFailed(true);
        setBusy(false);
      },
    );
  };

  return (
    <form className="card dev-sign-in" onSubmit={onSubmit}>
      <h2>{t('devSignIn.heading')}</h2>
      <p className="hint">{t('devSignIn.note')}</p>
      <label htmlFor="dev-email">{t('devSignIn.email')}</label>
      <input id="dev-email" name="email" type="email" autoComplete="email" required />
      {failed && (
        <p role="alert" className="error-text">
          {t('errors:unknown')}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {t('devSignIn.submit')}
      </button>
    </form>
  );
}
