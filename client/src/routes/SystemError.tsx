import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/ScreenPlaceholder';

/** The system error message, shared by `/error` and the route error boundary. */
export function SystemErrorContent() {
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const title = t('routes:systemError.title');
  useDocumentTitle(title);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">{title}</h1>
      <p className="lead" role="alert">
        {t('errors:systemError')}
      </p>
      <p>
        <Link to="/">{t('backHome')}</Link>
      </p>
    </section>
  );
}

/** `/error`: unexpected error, the team is investigating. */
export default function SystemError() {
  return <SystemErrorContent />;
}
