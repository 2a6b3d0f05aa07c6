import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useAppStore } from '../store';
import { selectAuthReady, selectAuthUser, selectIsSignedIn } from '../store/selectors';
import { Loading } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { isStaff, STAFF_HOME } from './roles';

/** Query parameter of `/` that names where to go after signing in. */
export const NEXT_PARAM = 'next';

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
 * (never a questionnaire waiting for an appointment staff cannot have).
 */
export function RequireAuth() {
  const ready = useAppStore(selectAuthReady);
  const signedIn = useAppStore(selectIsSignedIn);
  const staff = useAppStore((state) => isStaff(selectAuthUser(state)));
  const location = useLocation();
  if (!ready) return <Loading />;
  if (staff) return <ForPatientsOnly />;
  if (!signedIn) {
    const intended = `${location.pathname}${location.search}`;
    const search = new URLSearchParams({ [NEXT_PARAM]: intended });
    return <Navigate to={{ pathname: '/', search: `?${search.toString()}` }} replace state={{ from: intended }} />;
  }
  return <Outlet />;
}

/** Where to go after signing in: `?next=` when it is a path of this app, else the first step. */
export function nextPathAfterSignIn(search: URLSearchParams, fallback = '/b/clinic'): string {
  const next = search.get(NEXT_PARAM);
  // Only same-app paths: "//evil.example" or "https://..." must never be followed.
  return next?.startsWith('/') && !next.startsWith('//') ? next : fallback;
}
