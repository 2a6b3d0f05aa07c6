import { useSearchParams } from 'react-router';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { EntryService } from '../auth/EntryService';
import { entryFromQuery, SignInPanel } from '../auth/SignInPanel';
import { useQueryLocale } from '../i18n/useQueryLocale';

/** `/` (query locale, clinicId, serviceId, next): ask for a sign-in link by e-mail, naming the service asked for (`/pgt`). */
export default function Login() {
  useQueryLocale();
  const [search] = useSearchParams();
  const entry = entryFromQuery(search);
  return (
    <ScreenPlaceholder screen="login">
      <EntryService entry={entry} />
      <SignInPanel entry={entry} />
    </ScreenPlaceholder>
  );
}
