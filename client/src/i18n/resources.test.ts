import { describe, expect, it } from 'vitest';
import { contract, functionsErrorCodes } from '../contract';
import { createI18n } from './bundled';
import { resources } from './resources';

interface Tree {
  [key: string]: string | Tree;
}

/** "a.b.c" -> value, for every leaf of a translation tree. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const [ja, en] = [resources.ja, resources.en].map((byNs) => {
  const all = new Map<string, string>();
  for (const [ns, tree] of Object.entries(byNs)) {
    for (const [key, value] of leaves(tree)) all.set(`${ns}:${key}`, value);
  }
  return all;
});

describe('translations', () => {
  it('exist for exactly the locales of contract.json', () => {
    expect(Object.keys(resources).sort()).toEqual([...contract.locales].sort());
  });

  it('have the same keys in ja and en, key by key', () => {
    const jaKeys = [...(ja?.keys() ?? [])].sort();
    const enKeys = [...(en?.keys() ?? [])].sort();
    expect(jaKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
    expect(enKeys.filter((k) => !jaKeys.includes(k))).toEqual([]);
    expect(jaKeys.length).toBeGreaterThan(50);
  });

  it('have no empty text', () => {
    for (const table of [ja, en]) {
      for (const [key, value] of table ?? []) expect(value.trim(), key).not.toBe('');
    }
  });

  it('name every error code of contract.json, plus unknown, one to one, in both languages', () => {
    expect(functionsErrorCodes).toEqual([
      'invalid-argument',
      'unauthenticated',
      'permission-denied',
      'not-found',
      'aborted',
      'resource-exhausted',
      'cancelled',
      'internal',
      'unimplemented',
      'unavailable',
      'deadline-exceeded',
      'unknown',
    ]);
    for (const locale of ['ja', 'en'] as const) {
      const t = createI18n(locale).t;
      const sentences = functionsErrorCodes.map((code) => t(`errors:${code}`));
      sentences.forEach((sentence, i) => {
        expect(sentence, functionsErrorCodes[i]).not.toBe(functionsErrorCodes[i]);
      });
      expect(new Set(sentences).size).toBe(functionsErrorCodes.length);
    }
  });

  it('carry the user-visible messages of docs/product.md "Messages people see" in both languages', () => {
    const messages = [
      'paymentFailed',
      'cancelError',
      'authLinkInvalid',
      'mobileCarrierNotice',
      'systemError',
      'pageNotFound',
      'offline',
      'reenterEmail',
    ];
    for (const key of messages) {
      expect(ja?.has(`errors:${key}`), key).toBe(true);
      expect(en?.has(`errors:${key}`), key).toBe(true);
    }
    expect(en?.get('errors:systemError')).toMatch(/unexpected error.*investigating/i);
    expect(en?.get('errors:pageNotFound')).toBe('Page not found');
  });

  it('show Japanese by default and English on request', () => {
    expect(createI18n('ja').t('routes:login.title')).toBe('ログイン');
    expect(createI18n('en').t('routes:login.title')).toBe('Sign in');
  });
});
