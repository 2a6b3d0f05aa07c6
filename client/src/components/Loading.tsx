import { useTranslation } from 'react-i18next';

/** Shown while the first screen's code loads (and wherever a short wait needs words). */
export function Loading() {
  const { t } = useTranslation();
  return (
    <p role="status" className="loading">
      {t('loading')}
    </p>
  );
}
