import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { Loading } from '../components/Loading';
import { BackHomeLink, Screen } from '../components/ScreenPlaceholder';
import { EntryService } from '../auth/EntryService';
import { entryFromQuery, SignInPanel } from '../auth/SignInPanel';
import { useQueryLocale } from '../i18n/useQueryLocale';
import { callFunction, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { ErrorText } from '../components/FieldParts';

type ClinicLookup =
  | { id: string; status: 'found'; name: Partial<Record<string, string>> }
  | { id: string; status: 'missing' | 'unreadable' };

function nameOf(data: unknown): Partial<Record<string, string>> {
  const name = typeof data === 'object' && data !== null ? (data as { name?: unknown }).name : undefined;
  if (typeof name !== 'object' || name === null) return {};
  return Object.fromEntries(Object.entries(name).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** `/c/:clinicId` (query locale, serviceId): sign in to book with this clinic, named (once, in the title) by clinic-read. */
export default function ClinicLogin() {
  useQueryLocale();
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const { clinicId = '' } = useParams();
  const [search] = useSearchParams();
  const locale = useAppStore(selectLocale);
  const [lookup, setLookup] = useState<ClinicLookup | null>(null);

  useEffect(() => {
    let current = true;
    callFunction('clinic-read', { id: clinicId }).then(
      (data) => {
        if (current) setLookup({ id: clinicId, status: 'found', name: nameOf(data) });
      },
      (error: unknown) => {
        const missing = error instanceof FunctionsError && (error.code === 'not-found' || error.code === 'invalid-argument');
        if (current) setLookup({ id: clinicId, status: missing ? 'missing' : 'unreadable' });
      },
    );
    return () => {
      current = false;
    };
  }, [clinicId]);

  const loaded = lookup?.id === clinicId ? lookup : null;
  const entry = entryFromQuery(search, clinicId);
  let content;
  if (loaded === null) {
    content = <Loading />;
  } else if (loaded.status === 'missing') {
    content = (
      <>
        <ErrorText>{t('errors:clinicNotFound')}</ErrorText>
        <BackHomeLink />
      </>
    );
  } else {
    content = (
      <>
        <EntryService entry={entry} />
        <SignInPanel entry={entry} />
      </>
    );
  }
  // The clinic is named once, in the title (issue #15: it was named three times).
  const name = loaded?.status === 'found' ? (loaded.name[locale] ?? loaded.name.ja) : undefined;
  return (
    <Screen
      title={name === undefined ? t('routes:clinicLogin.title') : t('routes:clinicLogin.titleWith', { name })}
      lead={loaded?.status === 'missing' ? undefined : t('routes:clinicLogin.description')}
    >
      {content}
    </Screen>
  );
}
