import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from './ScreenPlaceholder';

/** "Unexpected error, the team is investigating": the `/error` page and the route error boundary. */
export function SystemErrorMessage() {
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const title = t('routes:systemError.title');
  useDocumentTitle(title);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>{title}</h1>
      <p className="lead" role="alert">
        {t('errors:systemError')}
      </p>
      <p>
        <Link to="/">{t('backHome')}</Link>
      </p>
    </section>
  );
}
