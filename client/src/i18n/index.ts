/**
 * The i18next instance of the app and its binding to the store's locale. Translations load on
 * demand, one language and namespace at a time (docs/architecture.md, "Client": how
 * translations load): the first screen's namespaces of the current language before the first
 * render, the others when a route needs them (router.tsx), another language when it is chosen
 * (its namespaces first, then the switch: no key is ever shown).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { getI18n, initReactI18next } from 'react-i18next';
import { bundleBackend } from './bundles';
import { locales, type Locale } from './locale';
import { clientNamespaces, firstScreenNamespaces, type Namespace } from './namespaces';

/**
 * The app's i18next instance, resolved once the first screen's namespaces of `locale` are
 * loaded. The parity test (resources.test.ts) keeps both languages' keys the same, so there
 * is no fallback language to load as well.
 */
export async function createAppI18n(locale: Locale): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(bundleBackend)
    .use(initReactI18next)
    .init({
      lng: locale,
      fallbackLng: false,
      supportedLngs: [...locales],
      ns: [...firstScreenNamespaces],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  requireLoaded(instance, firstScreenNamespaces);
  return instance;
}

/** Fails (a route's error page rather than raw keys) when a namespace could not be loaded. */
function requireLoaded(instance: I18n, ns: readonly Namespace[]): void {
  const language = instance.language;
  const missing = ns.filter((namespace) => !instance.hasResourceBundle(language, namespace));
  if (missing.length > 0) throw new Error(`translations not loaded: ${language}/${missing.join(', ')}`);
}

/**
 * Loads namespaces of the current language into the app's instance (the one react-i18next
 * renders with); with every translation bundled (tests) it resolves at once. Rejects when one
 * cannot be loaded (offline), so the route shows the system error page instead of keys.
 */
export async function loadNamespaces(ns: readonly Namespace[] = clientNamespaces): Promise<void> {
  const instance = getI18n() as I18n | undefined;
  if (!instance) return;
  if (!instance.isInitialized) {
    await new Promise<void>((resolve) => {
      instance.on('initialized', () => {
        resolve();
      });
    });
  }
  await instance.loadNamespaces([...ns]);
  requireLoaded(instance, ns);
}

/** The language last asked of each instance (a switch may still be loading). */
const wanted = new WeakMap<I18n, string>();

/**
 * Switches the interface language and the document's `lang` attribute together, once every
 * namespace in use is loaded in the new language: the page changes language at once, never
 * through keys. When they cannot be loaded (offline), the page stays in its language and the
 * switch is tried again once the browser is back online.
 */
export function applyLocale(instance: I18n, locale: Locale, doc: Document = document): void {
  const current = wanted.get(instance) ?? instance.language;
  if (current === locale) {
    if (instance.language === locale) doc.documentElement.lang = locale;
    return;
  }
  wanted.set(instance, locale);
  void switchWhenLoaded(instance, locale, doc);
}

async function switchWhenLoaded(instance: I18n, locale: Locale, doc: Document): Promise<void> {
  const inUse = [instance.options.ns ?? []].flat();
  const missing = (): string[] => inUse.filter((namespace) => !instance.hasResourceBundle(locale, namespace));
  // A reload, not a load: i18next does not ask again for a bundle that failed once.
  if (missing().length > 0) await instance.reloadResources([locale], missing()).catch(() => undefined);
  if (wanted.get(instance) !== locale) return; // another language was chosen meanwhile
  if (missing().length > 0) {
    wanted.delete(instance);
    doc.defaultView?.addEventListener(
      'online',
      () => {
        if (!wanted.has(instance)) applyLocale(instance, locale, doc);
      },
      { once: true },
    );
    return;
  }
  await instance.changeLanguage(locale);
  if (instance.language === locale) doc.documentElement.lang = locale;
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
