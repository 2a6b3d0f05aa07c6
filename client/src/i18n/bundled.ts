/**
 * An i18next instance with every translation bundled in, ready at once: for tests, which
 * render screens in both languages without waiting. The app loads its translations on demand
 * instead (index.ts, createAppI18n).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLocale, type Locale } from './locale';
import { namespaces, resources } from './resources';

/** A fully initialised (synchronously, resources are bundled) i18next instance. */
export function createI18n(locale: Locale): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: defaultLocale,
    supportedLngs: Object.keys(resources),
    ns: [...namespaces],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance;
}
