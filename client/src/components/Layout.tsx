import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate } from 'react-router';
import { auth } from '../auth/session';
import { useAppStore } from '../store';
import { selectAppointment, selectIsSignedIn } from '../store/selectors';
import { useConnectivity } from '../presence/useConnectivity';
import { connectionNotice, inactivityWarning } from '../presence/dialogs';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Loading } from './Loading';
import { NavigationFocus } from './NavigationFocus';
import { ScrollToTop } from './ScrollToTop';

// The held time's countdown and the question before signing out from it: only for the
// signed-in, so loaded when first needed.
const HeldTimeBar = lazy(() => import('../booking/HeldTimeBar'));
const SignOutDialog = lazy(() => import('../booking/SignOutDialog'));

function warnNotLoaded(error: unknown): void {
  console.warn('a part of the page did not load', error);
}

/**
 * The frame of every page: header (name, language, sign-out), main content, footer links; the
 * connection notice (a bar that blocks nothing) and the inactivity warning while signed in
 * (docs/product.md "Behaviours across screens"). While the connection is lost the server
 * cannot be told of activity, so the warning waits for it; while the warning shows, the page
 * behind is inert (the dialog sees to it). After a navigation the page scrolls to its top and
 * focus moves to its title (NavigationFocus). While a booking holds a time, its countdown stays
 * at the top of the page (HeldTimeBar), and signing out asks first (SignOutDialog). The notice
 * and the countdown load apart from the first screen (presence/dialogs.ts).
 */
export function Layout() {
  const { t } = useTranslation();
  const signedIn = useAppStore(selectIsSignedIn);
  const navigate = useNavigate();
  const connectivity = useConnectivity();
  const appointment = useAppStore(selectAppointment);
  const [askSignOut, setAskSignOut] = useState(false);
  const notice = connectionNotice.useLoaded();
  const inactivity = inactivityWarning.useLoaded();
  // Loaded only once the booking has a hold (held or lapsed): most pages never need it.
  const holdEnds = appointment?.exists ? appointment.data?.holdExpiresAt : undefined;
  const mayHold = signedIn && typeof holdEnds === 'string';
  const signOut = () => {
    setAskSignOut(false);
    // After the sign-out: the booking guard's redirect (with `?next=`) comes first.
    void auth.signOut().then(() => navigate('/', { replace: true }));
  };
  const { open: lost, cause, retrying } = connectivity.state;
  // Waits while the connection is lost, and while the inactivity warning shows.
  const signOutQuestion = !lost && askSignOut && (
    <Suspense fallback={null}>
      <SignOutDialog
        onSignOut={signOut}
        onStay={() => {
          setAskSignOut(false);
        }}
      />
    </Suspense>
  );
  // The notice is loaded after the first screen (main.tsx); here again if that failed.
  useEffect(() => {
    if (lost) connectionNotice.load().catch(warnNotLoaded);
  }, [lost]);
  useEffect(() => {
    if (signedIn) inactivityWarning.load().catch(warnNotLoaded);
  }, [signedIn]);
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
                    const document = appointment?.exists ? appointment.data : null;
                    void import('../booking/hold').then(({ timeHeld }) => {
                      if (timeHeld(document, Date.now())) setAskSignOut(true);
                      else signOut();
                    });
                  }}
                >
                  {t('signOut')}
                </button>
              )}
            </div>
          </div>
        </header>
        <main id="main" className="container" tabIndex={-1}>
          {mayHold && (
            <Suspense fallback={null}>
              <HeldTimeBar />
            </Suspense>
          )}
          {/* A component may still be loading a namespace of its words (i18n/index.ts). */}
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
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
      {/* It and its words (screens) load after the first screen: never hold the page for them. */}
      <Suspense fallback={null}>
        {lost && cause !== null && notice && (
          <notice.ConnectionNotice cause={cause} retrying={retrying} onRetry={connectivity.retry} />
        )}
      </Suspense>
      {signedIn &&
        (inactivity ? <inactivity.InactivityWarning lost={lost}>{signOutQuestion}</inactivity.InactivityWarning> : signOutQuestion)}
    </>
  );
}
