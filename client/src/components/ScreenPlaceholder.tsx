import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
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

/**
 * A screen: its `<h1>` title (also the document title; focused after a navigation, see
 * NavigationFocus), a one-line purpose, its content.
 */
export function Screen({ title, lead, leadRole, children }: { title: string; lead?: ReactNode; leadRole?: 'alert'; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>{title}</h1>
      {lead !== undefined && (
        <p className="lead" role={leadRole}>
          {lead}
        </p>
      )}
      {children}
    </section>
  );
}

/** "Back to the start page", the way out of an error or a missing page. */
export function BackHomeLink() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/">{t('backHome')}</Link>
    </p>
  );
}

/** A screen titled and described by its `routes` entry (content of later issues below). */
export function ScreenPlaceholder({ screen, children }: { screen: PlaceholderScreen; children?: ReactNode }) {
  const { t } = useTranslation('routes');
  return (
    <Screen title={t(`${screen}.title`)} lead={t(`${screen}.description`)}>
      {children}
    </Screen>
  );
}
