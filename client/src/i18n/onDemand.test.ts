import i18next, { type BackendModule } from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { applyLocale, createAppI18n, loadNamespaces } from './index';

describe("the app's translations, loaded on demand", () => {
  it('start with the first screen namespaces of the current language only', async () => {
    const i18n = await createAppI18n('ja');
    for (const ns of ['common', 'routes', 'errors']) expect(i18n.hasResourceBundle('ja', ns), ns).toBe(true);
    for (const ns of ['staff', 'booking', 'screens']) expect(i18n.hasResourceBundle('ja', ns), ns).toBe(false);
    expect(i18n.hasResourceBundle('en', 'routes')).toBe(false);
    expect(i18n.t('routes:login.title')).toBe('ログイン');
  });

  it('switch language only once the new language is loaded: never through keys', async () => {
    const i18n = await createAppI18n('ja');
    const doc = document.implementation.createHTMLDocument();
    doc.documentElement.lang = 'ja';
    const seen: string[] = [];
    i18n.on('languageChanged', () => {
      seen.push(i18n.t('routes:login.title'));
    });
    applyLocale(i18n, 'en', doc);
    expect(i18n.t('routes:login.title')).toBe('ログイン');
    expect(doc.documentElement.lang).toBe('ja');
    await vi.waitFor(() => {
      expect(i18n.language).toBe('en');
    });
    expect(seen).toEqual(['Sign in']);
    expect(doc.documentElement.lang).toBe('en');
    expect(i18n.hasResourceBundle('en', 'staff')).toBe(false);
  });

  it('a switch back before the first one loaded wins', async () => {
    const i18n = await createAppI18n('ja');
    const doc = document.implementation.createHTMLDocument();
    applyLocale(i18n, 'en', doc);
    applyLocale(i18n, 'ja', doc);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(i18n.language).toBe('ja');
    expect(doc.documentElement.lang).toBe('ja');
  });

  it('load a namespace when a screen asks for it, in the current language only', async () => {
    const i18n = await createAppI18n('en');
    await loadNamespaces(['staff']);
    expect(i18n.hasResourceBundle('en', 'staff')).toBe(true);
    expect(i18n.hasResourceBundle('ja', 'staff')).toBe(false);
    // A language chosen later brings every namespace loaded so far.
    applyLocale(i18n, 'ja', document.implementation.createHTMLDocument());
    await vi.waitFor(() => {
      expect(i18n.language).toBe('ja');
    });
    expect(i18n.hasResourceBundle('ja', 'staff')).toBe(true);
  });

  it('stay in the current language when the new one cannot load, and switch once back online', async () => {
    let online = false;
    const titles: Record<string, string> = { ja: 'ログイン', en: 'Sign in' };
    const backend: BackendModule = {
      type: 'backend',
      init() {
        // nothing to set up
      },
      read(language, _namespace, callback) {
        if (language === 'en' && !online) callback(new Error('offline'), false);
        else callback(null, { login: { title: titles[language] ?? '' } });
      },
    };
    const i18n = i18next.createInstance();
    await i18n.use(backend).init({ lng: 'ja', fallbackLng: false, ns: ['routes'], defaultNS: 'routes' });
    document.documentElement.lang = 'ja';
    applyLocale(i18n, 'en');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(i18n.language).toBe('ja');
    expect(i18n.t('routes:login.title')).toBe('ログイン');
    expect(document.documentElement.lang).toBe('ja');
    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => {
      expect(i18n.language).toBe('en');
    });
    expect(i18n.t('routes:login.title')).toBe('Sign in');
    expect(document.documentElement.lang).toBe('en');
  });
});
