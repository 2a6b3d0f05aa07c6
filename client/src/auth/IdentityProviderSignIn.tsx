/**
 * Staff sign-in at their clinic's own identity provider (docs/protocol.md, "Staff sign-in
 * through the clinic's identity provider"): on the sign-in screen of the staff workspace
 * (`/?next=/staff...`), one "Sign in with <provider>" per clinic that has one
 * (`auth-identityProviders`, public), each a plain link to `/auth/oidc/{clinicId}/start`: the
 * browser leaves for the provider and comes back signed in. A sign-in that came back refused
 * (`?staffSignIn=<reason>`) is told in the person's language.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { contract } from '../contract';
import { isRecord } from '../isRecord';
import { callFunction } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { NEXT_PARAM } from './nextPath';
import { STAFF_HOME } from './roles';

export const REFUSAL_PARAM = 'staffSignIn';
/** The words of each refusal of realtime/contract.json `staffSignInErrors` (a test checks that every one has its words). */
export const refusalKeys = {
  expired: 'login.staffSignIn.expired',
  cancelled: 'login.staffSignIn.cancelled',
  provider: 'login.staffSignIn.provider',
  token: 'login.staffSignIn.token',
  unknown: 'login.staffSignIn.unknown',
  'not-offered': 'login.staffSignIn.not-offered',
  'too-many': 'login.staffSignIn.too-many',
} as const;
export type StaffSignInError = keyof typeof refusalKeys;

interface Offered {
  clinicId: string;
  clinicName: Record<string, string>;
  name: string;
}

function parseOffered(data: unknown): Offered[] {
  if (!isRecord(data) || !Array.isArray(data.providers)) return [];
  return data.providers.flatMap((item: unknown) => {
    if (!isRecord(item) || typeof item.clinicId !== 'string' || typeof item.name !== 'string' || !isRecord(item.clinicName)) return [];
    const clinicName = Object.fromEntries(Object.entries(item.clinicName).filter((e): e is [string, string] => typeof e[1] === 'string'));
    return [{ clinicId: item.clinicId, clinicName, name: item.name }];
  });
}

export function staffSignInError(search: URLSearchParams): StaffSignInError | null {
  const value = search.get(REFUSAL_PARAM) ?? '';
  return contract.staffSignInErrors.includes(value) && Object.hasOwn(refusalKeys, value) ? (value as StaffSignInError) : null;
}

/** The staff workspace's path this sign-in continues to (else its home). */
function staffNext(search: URLSearchParams): string | null {
  const next = search.get(NEXT_PARAM);
  if (next?.startsWith(STAFF_HOME)) return next;
  return search.has(REFUSAL_PARAM) ? STAFF_HOME : null;
}

export function IdentityProviderSignIn() {
  const { t } = useTranslation('routes');
  const [search] = useSearchParams();
  const locale = useAppStore(selectLocale);
  const [offered, setOffered] = useState<Offered[]>([]);
  const next = staffNext(search);
  const refusal = staffSignInError(search);

  useEffect(() => {
    if (next === null) return;
    let current = true;
    callFunction('auth-identityProviders', null).then(
      (data) => {
        if (current) setOffered(parseOffered(data));
      },
      () => undefined, // the e-mail form is still there
    );
    return () => {
      current = false;
    };
  }, [next]);

  if (next === null) return null;
  return (
    <>
      {refusal !== null && (
        <p role="alert" className="notice">
          {t(refusalKeys[refusal])}
        </p>
      )}
      {offered.length > 0 && (
        <div className="card">
          <h2>{t('login.providersTitle')}</h2>
          <ul className="identity-providers">
            {offered.map((provider) => (
              <li key={provider.clinicId}>
                <a className="identity-provider" href={`/auth/oidc/${encodeURIComponent(provider.clinicId)}/start?${new URLSearchParams({ next }).toString()}`}>
                  {t('login.providerButton', { name: provider.name, clinic: provider.clinicName[locale] ?? provider.clinicName.ja ?? provider.clinicId })}
                </a>
              </li>
            ))}
          </ul>
          <p className="hint">{t('login.providersHint')}</p>
        </div>
      )}
    </>
  );
}
