import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/ScreenPlaceholder';

/** Every path no other route matches. */
export default function NotFound() {
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const title = t('errors:pageNotFound');
  useDocumentTitle(title);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>{title}</h1>
      <p className="lead">{t('routes:notFound.description')}</p>
      <p>
        <Link to="/">{t('backHome')}</Link>
      </p>
    </section>
  );
}
