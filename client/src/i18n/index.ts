/**
 * The i18next instance of the app and its binding to the store's locale.
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

/** Switches the interface language and the document's `lang` attribute together. */
export function applyLocale(instance: I18n, locale: Locale, doc: Document = document): void {
  doc.documentElement.lang = locale;
  if (instance.language !== locale) void instance.changeLanguage(locale);
}

/** Keeps i18next and `<html lang>` in step with a locale source (the store). */
export function bindLocale(
  instance: I18n,
  source: { getState(): { locale: Locale }; subscribe(listener: (state: { locale: Locale }) => void): () => void },
  doc: Document = document,
): () => void {
  applyLocale(instance, source.getState().locale, doc);
  return source.subscribe((state) => {
    applyLocale(instance, state.locale, doc);
  });
}
