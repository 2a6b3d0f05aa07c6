import { useTranslation } from 'react-i18next';
import { BackHomeLink, Screen } from './ScreenPlaceholder';

/** "Unexpected error, the team is investigating": the `/error` page and the route error boundary. */
export function SystemErrorMessage() {
  const { t } = useTranslation(['routes', 'errors']);
  return (
    <Screen title={t('routes:systemError.title')} lead={t('errors:systemError')} leadRole="alert">
      <BackHomeLink />
    </Screen>
  );
}
