import { useSearchParams } from 'react-router';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { entryFromQuery, SignInPanel } from '../auth/SignInPanel';
import { useQueryLocale } from '../i18n/useQueryLocale';

/** `/` (query locale, clinicId, serviceId, next): ask for a sign-in link by e-mail. */
export default function Login() {
  useQueryLocale();
  const [search] = useSearchParams();
  return (
    <ScreenPlaceholder screen="login">
      <SignInPanel entry={entryFromQuery(search)} />
    </ScreenPlaceholder>
  );
}
