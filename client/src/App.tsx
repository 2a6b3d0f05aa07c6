import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { OutsideNavigation } from './components/OutsideNavigation';
import { AppRoutes } from './router';

export function App({ i18n }: { i18n: I18n }) {
  return (
    <I18nextProvider i18n={i18n}>
      <BrowserRouter>
        <OutsideNavigation />
        <AppRoutes />
      </BrowserRouter>
    </I18nextProvider>
  );
}
