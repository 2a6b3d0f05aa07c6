import type { ReactNode } from 'react';
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

/** Next to a button while its action runs: a spinner and what is happening, announced. */
export function BusyStatus({ busy, children }: { busy: boolean; children: ReactNode }) {
  if (!busy) return null;
  return (
    <span role="status" className="hint">
      <span className="spinner" aria-hidden="true" /> {children}
    </span>
  );
}
