/**
 * What a booking mail's link session shows where a full session would show more (the answers,
 * the other appointments, the account): that the link opens this booking only, and the normal
 * e-mail sign-in, which comes back to this page (RequireAuth keeps it in `?next=`).
 */
import { useTranslation } from 'react-i18next';
import { auth } from './session';

export function SignInForMore() {
  const { t } = useTranslation('booking');
  return (
    <section className="card sign-in-for-more" aria-labelledby="sign-in-for-more-heading">
      <h2 id="sign-in-for-more-heading">{t('myBooking.answers')}</h2>
      <p className="hint">{t('mailLink.signInForMore')}</p>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          void auth.signOut();
        }}
      >
        {t('mailLink.signIn')}
      </button>
    </section>
  );
}
