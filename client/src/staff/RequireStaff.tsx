import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { NEXT_PARAM } from '../auth/nextPath';
import { isStaff, SECOND_FACTOR_PATH, secondFactorOf } from '../auth/roles';
import { Loading } from '../components/Loading';
import { Screen } from '../components/ScreenPlaceholder';
import { useAppStore } from '../store';
import { selectAuthReady, selectAuthUser } from '../store/selectors';
import { StaffNav } from './StaffNav';

/** What a signed-in client sees under /staff: a plain page, and the way back to their booking. */
export function NotForClients() {
  const { t } = useTranslation('staff');
  return (
    <Screen title={t('notForStaff.title')} lead={t('notForStaff.description')}>
      <p>
        <Link to="/b/clinic">{t('notForStaff.back')}</Link>
      </p>
    </Screen>
  );
}

/**
 * Guards `/staff...`: a signed-out visitor goes to the login screen (`?next=` the intended
 * path); a client sees that the page is for clinic staff; a staff session that still needs
 * its second factor goes to `/staff/second-factor` first (then back to the intended path).
 */
export function RequireStaff() {
  const ready = useAppStore(selectAuthReady);
  const user = useAppStore(selectAuthUser);
  const location = useLocation();
  if (!ready) return <Loading />;
  const intended = `${location.pathname}${location.search}`;
  if (user === null) {
    const search = new URLSearchParams({ [NEXT_PARAM]: intended });
    return <Navigate to={{ pathname: '/', search: `?${search.toString()}` }} replace state={{ from: intended }} />;
  }
  if (!isStaff(user)) return <NotForClients />;
  if (secondFactorOf(user) !== 'ok' && location.pathname !== SECOND_FACTOR_PATH) {
    return <Navigate to={SECOND_FACTOR_PATH} replace state={{ from: intended }} />;
  }
  if (location.pathname === SECOND_FACTOR_PATH) return <Outlet />;
  return (
    <>
      <StaffNav />
      <Outlet />
    </>
  );
}
