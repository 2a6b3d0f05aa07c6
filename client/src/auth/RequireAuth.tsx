import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useAppStore } from '../store';
import { selectAuthReady, selectAuthUser, selectCurrentStatus, selectIsSignedIn } from '../store/selectors';
import { landingRedirect } from '../booking/landing';
import { Loading } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { isStaff, STAFF_HOME } from './roles';
import { mailLinkOf } from './linkSession';
import { MailLinkOpening } from './MailLinkOpening';
import { NEXT_PARAM } from './nextPath';

// Where a sign-in leads lives beside the path checks (the login screens need it without this
// guard, which is loaded only with the booking routes).
export { NEXT_PARAM, nextPathAfterSignIn } from './nextPath';

/** What staff see on a booking step: the page is for patients, and the way to their board. */
export function ForPatientsOnly() {
  const { t } = useTranslation('staff');
  return (
    <Screen title={t('forPatients.title')} lead={t('forPatients.description')}>
      <p>
        <Link to={STAFF_HOME}>{t('secondFactor.toBoard')}</Link>
      </p>
    </Screen>
  );
}

/**
 * Guards the booking steps: a signed-out visitor goes to the login screen, which gets the
 * intended path in `?next=` (and in the navigation state as `from`); clinic staff have no
 * booking of their own: they are told the page is for patients, with a link to their board
 * (never a questionnaire waiting for an appointment staff cannot have). A person whose
 * appointment is past its draft is sent on to My booking from the questionnaire
 * (booking/landing.ts), whichever way they came. A page opened from a booking mail's signed
 * link (`&t=`) first exchanges it for a session scoped to that link (auth/MailLinkOpening.tsx).
 */
export function RequireAuth() {
  const ready = useAppStore(selectAuthReady);
  const signedIn = useAppStore(selectIsSignedIn);
  const staff = useAppStore((state) => isStaff(selectAuthUser(state)));
  const status = useAppStore(selectCurrentStatus);
  const location = useLocation();
  if (!ready) return <Loading />;
  const mailLink = mailLinkOf(location.pathname, location.search);
  if (mailLink !== null) return <MailLinkOpening link={mailLink} />;
  if (staff) return <ForPatientsOnly />;
  if (!signedIn) {
    const intended = `${location.pathname}${location.search}`;
    const search = new URLSearchParams({ [NEXT_PARAM]: intended });
    return <Navigate to={{ pathname: '/', search: `?${search.toString()}` }} replace state={{ from: intended }} />;
  }
  const landing = landingRedirect(location.pathname, status);
  if (landing !== null) return <Navigate to={landing} replace />;
  return <Outlet />;
}
