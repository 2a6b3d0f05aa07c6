/**
 * The translation files as separate chunks, one per language and namespace, loaded on demand
 * through an i18next backend (docs/architecture.md, "Client": how translations load).
 * `import.meta.glob` without `eager` makes each file its own dynamic import: none of them is
 * part of the app's first load until asked for.
 */
import type { BackendModule, ResourceKey } from 'i18next';

const files = import.meta.glob<{ default: ResourceKey }>('../locales/*/*.json');

/** The languages that have translation files ("ja", "en"), read from the file names only. */
export const translatedLanguages: readonly string[] = [
  ...new Set(Object.keys(files).map((path) => path.split('/').at(-2) ?? '')),
];

/** Loads one language's namespace (a rejected promise when there is no such file). */
export async function loadBundle(language: string, namespace: string): Promise<ResourceKey> {
  const load = files[`../locales/${language}/${namespace}.json`];
  if (load === undefined) throw new Error(`no translations for ${language}/${namespace}`);
  return (await load()).default;
}

/** An i18next backend reading the files above. */
export const bundleBackend: BackendModule = {
  type: 'backend',
  init() {
    // Nothing to set up: the files are known at build time.
  },
  read(language, namespace, callback) {
    loadBundle(language, namespace).then(
      (bundle) => {
        callback(null, bundle);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), false);
      },
    );
  },
};
