import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { resources } from '../i18n/resources';

/** Screens with a title and a one-line description in the `routes` namespace. */
export type PlaceholderScreen = {
  [K in keyof (typeof resources)['ja']['routes']]: (typeof resources)['ja']['routes'][K] extends { title: string; description: string }
    ? K
    : never;
}[keyof (typeof resources)['ja']['routes']];

/** Sets the document title to "<screen> | <app name>". */
export function useDocumentTitle(title: string): void {
  const { t } = useTranslation();
  const appName = t('appName');
  useEffect(() => {
    document.title = `${title} | ${appName}`;
  }, [title, appName]);
}

/** A screen whose content a later issue builds: its translated title and purpose. */
export function ScreenPlaceholder({ screen, children }: { screen: PlaceholderScreen; children?: ReactNode }) {
  const { t } = useTranslation('routes');
  const title = t(`${screen}.title`);
  useDocumentTitle(title);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">{title}</h1>
      <p className="lead">{t(`${screen}.description`)}</p>
      {children}
    </section>
  );
}
