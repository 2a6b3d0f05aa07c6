import { useSearchParams } from 'react-router';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { EntryService } from '../auth/EntryService';
import { entryFromQuery, SignInPanel } from '../auth/SignInPanel';
import { IdentityProviderSignIn } from '../auth/IdentityProviderSignIn';
import { useQueryLocale } from '../i18n/useQueryLocale';

/**
 * `/` (query locale, clinicId, serviceId, next, staffSignIn): ask for a sign-in link by e-mail, naming the service asked
 * for (`/pgt`); on the way to the staff workspace, also sign in at a clinic's own identity provider.
 */
export default function Login() {
  useQueryLocale();
  const [search] = useSearchParams();
  const entry = entryFromQuery(search);
  return (
    <ScreenPlaceholder screen="login">
      <EntryService entry={entry} />
      <IdentityProviderSignIn />
      <SignInPanel entry={entry} />
    </ScreenPlaceholder>
  );
}
