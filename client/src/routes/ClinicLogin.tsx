import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { useQueryLocale } from '../i18n/useQueryLocale';

/** `/c/:clinicId` (query locale): sign in for a specific clinic. Form: a later issue. */
export default function ClinicLogin() {
  useQueryLocale();
  return <ScreenPlaceholder screen="clinicLogin" />;
}
