import { useTranslation } from 'react-i18next';
import { BackHomeLink, Screen } from '../components/ScreenPlaceholder';

/** Every path no other route matches. */
export default function NotFound() {
  const { t } = useTranslation(['routes', 'errors']);
  return (
    <Screen title={t('errors:pageNotFound')} lead={t('routes:notFound.description')}>
      <BackHomeLink />
    </Screen>
  );
}
