import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInEntry } from './emailLink';
import { callFunction } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';

type Names = Partial<Record<string, string>>;

function namesOf(data: unknown): Names {
  const name = typeof data === 'object' && data !== null ? (data as { name?: unknown }).name : undefined;
  if (typeof name !== 'object' || name === null) return {};
  return Object.fromEntries(Object.entries(name).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * Names the service a login screen was opened for (`/pgt`, `?serviceId=`), read by
 * `service-read` (an entry alias without a clinic is the default clinic's); nothing while
 * unknown or when it cannot be read (the sign-in itself says whether the entry exists).
 */
export function EntryService({ entry }: { entry: SignInEntry }) {
  const { t } = useTranslation('routes');
  const locale = useAppStore(selectLocale);
  const { clinicId, serviceId } = entry;
  const [read, setRead] = useState<{ key: string; names: Names } | null>(null);
  const key = `${clinicId ?? ''}/${serviceId ?? ''}`;

  useEffect(() => {
    if (serviceId === undefined) return;
    let current = true;
    callFunction('service-read', clinicId === undefined ? { id: serviceId } : { id: serviceId, clinicId }).then(
      (data) => {
        if (current) setRead({ key, names: namesOf(data) });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [clinicId, serviceId, key]);

  const name = read?.key === key ? (read.names[locale] ?? read.names.ja) : undefined;
  if (serviceId === undefined || name === undefined) return null;
  return <p className="clinic-name">{t('login.service', { service: name })}</p>;
}
