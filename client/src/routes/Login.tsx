import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { useQueryLocale } from '../i18n/useQueryLocale';

/** `/` (query locale, clinicId, serviceId, next): sign in by e-mail link. Form: a later issue. */
export default function Login() {
  useQueryLocale();
  return <ScreenPlaceholder screen="login" />;
}
