/**
 * The staff workspace's navigation, above every staff screen (mounted by RequireStaff once the
 * second factor is passed). Each entry names the roles that may open it: a counselor sees the
 * board and their schedule; a clinic administrator sees the whole administration. The server
 * checks every call anyway: hiding an entry is courtesy, not the rule.
 */
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { staffRole, type StaffRole } from '../auth/roles';
import { useAppStore } from '../store';
import { selectAuthUser } from '../store/selectors';
import './staffNav.css';

interface Entry {
  to: string;
  key: 'board' | 'schedule' | 'services' | 'codes' | 'documents' | 'team' | 'identity' | 'audit';
  roles: readonly StaffRole[];
}

const EVERY_ROLE: readonly StaffRole[] = ['counselor', 'clinic_admin'];
const ADMIN: readonly StaffRole[] = ['clinic_admin'];

export const STAFF_ENTRIES: readonly Entry[] = [
  { to: '/staff', key: 'board', roles: EVERY_ROLE },
  { to: '/staff/schedule', key: 'schedule', roles: EVERY_ROLE },
  { to: '/staff/services', key: 'services', roles: ADMIN },
  { to: '/staff/codes', key: 'codes', roles: ADMIN },
  { to: '/staff/documents', key: 'documents', roles: ADMIN },
  { to: '/staff/team', key: 'team', roles: ADMIN },
  { to: '/staff/identity', key: 'identity', roles: ADMIN },
  { to: '/staff/audit', key: 'audit', roles: ADMIN },
];

export function StaffNav() {
  const { t } = useTranslation('staff');
  const role = staffRole(useAppStore(selectAuthUser)?.role);
  if (role === null) return null;
  return (
    <nav className="staff-nav" aria-label={t('nav.label')}>
      <ul>
        {STAFF_ENTRIES.filter((entry) => entry.roles.includes(role)).map((entry) => (
          <li key={entry.key}>
            <NavLink to={entry.to} end={entry.to === '/staff'}>
              {t(`nav.${entry.key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
