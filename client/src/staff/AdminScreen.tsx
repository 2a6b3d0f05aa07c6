/**
 * What the clinic administration screens share (/staff/services, /staff/codes): the screen
 * for clinic administrators only (a counselor is told so, with the way back to the board),
 * and the first read of a list by a staff call.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STAFF_HOME, staffRole } from '../auth/roles';
import { ErrorText } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser } from '../store/selectors';

export function AdminScreen({ title, lead, adminsOnly, children }: { title: string; lead: string; adminsOnly: string; children: (clinicId: string) => ReactNode }) {
  const { t } = useTranslation('staff');
  const user = useAppStore(selectAuthUser);
  const clinicId = user?.clinicId ?? null;
  if (staffRole(user?.role) !== 'clinic_admin') {
    return (
      <Screen title={title} lead={adminsOnly}>
        <p>
          <Link to={STAFF_HOME}>{t('audit.toBoard')}</Link>
        </p>
      </Screen>
    );
  }
  return (
    <Screen title={title} lead={lead}>
      {clinicId === null ? <ErrorText>{t('board.noClinic')}</ErrorText> : children(clinicId)}
    </Screen>
  );
}

export type ReadFailure = ReturnType<typeof errorMessageKey>;

/** The reply of `name` for the clinic, parsed (null while reading), or why it failed; `setValue` keeps the screen's changes. */
export function useClinicRead<T>(name: string, clinicId: string, parse: (data: unknown) => T | null) {
  const [value, setValue] = useState<T | null>(null);
  const [failure, setFailure] = useState<ReadFailure | null>(null);
  useEffect(() => {
    let live = true;
    callFunction(name, { clinicId }).then(
      (data) => {
        if (!live) return;
        const parsed = parse(data);
        if (parsed === null) setFailure('errors:unknown');
        else setValue(parsed);
      },
      (error: unknown) => {
        if (live) setFailure(errorMessageKey(error));
      },
    );
    return () => {
      live = false;
    };
  }, [name, clinicId, parse]);
  return { value, setValue, failure };
}
