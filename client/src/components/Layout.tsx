import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate } from 'react-router';
import { auth } from '../auth/session';
import { useAppStore } from '../store';
import { selectIsSignedIn } from '../store/selectors';
import { useConnectivity } from '../presence/useConnectivity';
import { useInactivity } from '../presence/useInactivity';
import { InactivityDialog } from '../presence/InactivityDialog';
import { LanguageSwitcher } from './LanguageSwitcher';
import { NavigationFocus } from './NavigationFocus';
import { ConnectionNotice } from '../presence/ConnectionNotice';
import { ScrollToTop } from './ScrollToTop';

/**
 * The frame of every page: header (name, language, sign-out), main content, footer links; the
 * connection notice (a bar that blocks nothing) and the inactivity warning while signed in
 * (docs/product.md "Behaviours across screens"). While the connection is lost the server
 * cannot be told of activity, so the warning waits for it; while the warning shows, the page
 * behind is inert (the dialog sees to it). After a navigation the page scrolls to its top and
 * focus moves to its title (NavigationFocus).
 */
export function Layout() {
  const { t } = useTranslation();
  const signedIn = useAppStore(selectIsSignedIn);
  const navigate = useNavigate();
  const connectivity = useConnectivity();
  const inactivity = useInactivity();
  const { open: lost, cause, retrying } = connectivity.state;
  const warning = !lost && signedIn && inactivity.state.phase === 'warning';
  return (
    <>
      <div className="app">
        <a className="skip-link" href="#main">
          {t('skipToContent')}
        </a>
        <header className="site-header">
          <div className="container header-row">
            <Link to="/" className="brand">
              {t('appName')}
            </Link>
            <div className="header-actions">
              <LanguageSwitcher />
              {signedIn && (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    // After the sign-out: the booking guard's redirect (with `?next=`) comes first.
                    void auth.signOut().then(() => navigate('/', { replace: true }));
                  }}
                >
                  {t('signOut')}
                </button>
              )}
            </div>
          </div>
        </header>
        <main id="main" className="container" tabIndex={-1}>
          <Outlet />
        </main>
        <footer className="site-footer">
          <nav className="container" aria-label={t('footer.label')}>
            <ul>
              <li>
                <Link to="/contact">{t('footer.contact')}</Link>
              </li>
              <li>
                <Link to="/privacy">{t('footer.privacy')}</Link>
              </li>
              <li>
                <Link to="/terms">{t('footer.terms')}</Link>
              </li>
            </ul>
          </nav>
        </footer>
        <ScrollToTop />
        <NavigationFocus />
      </div>
      {lost && cause !== null && <ConnectionNotice cause={cause} retrying={retrying} onRetry={connectivity.retry} />}
      {warning && (
        <InactivityDialog secondsLeft={inactivity.state.secondsLeft} onContinue={inactivity.continueSession} />
      )}
    </>
  );
}
