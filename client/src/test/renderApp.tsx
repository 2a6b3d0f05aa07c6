import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { bindLocale } from '../i18n';
import { createI18n } from '../i18n/bundled';
import type { Locale } from '../i18n/locale';
import { AppRoutes } from '../router';
import { useAppStore } from '../store';
import type { AuthUser } from '../store/types';
import { inMemoryRouter } from './memoryRouter';

export const alice: AuthUser = { uid: 'u1', email: 'alice@example.com', role: null, clinicId: null };

/**
 * Renders the real route table in a memory router at `path`, with the app store set to the
 * given person (null: signed out) and language.
 */
export function renderApp(path: string, { user = null, locale = 'en' }: { user?: AuthUser | null; locale?: Locale } = {}) {
  useAppStore.getState().reset();
  useAppStore.getState().setAuthUser(user);
  useAppStore.getState().setLocale(locale);
  const i18n = createI18n(locale);
  const unbind = bindLocale(i18n, useAppStore);
  const { element, router } = inMemoryRouter(<AppRoutes />, [path]);
  const view = render(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
  return {
    ...view,
    router,
    i18n,
    unmount: () => {
      view.unmount();
      unbind();
    },
  };
}
