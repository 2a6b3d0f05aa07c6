/**
 * The house style of the words people read (docs/product.md, "Wording and terms"): US English
 * in every English text, and no stray half-width space between two Japanese words. Covers the
 * interface texts and the questionnaire's words (realtime/intake/definition.json); the mail
 * templates are checked on the server side (tests/test_mail_wording.py).
 */
import { describe, expect, it } from 'vitest';
import definition from '../../../realtime/intake/definition.json';
import { resources } from './resources';

/** Every string under a JSON value, with its path. */
function texts(value: unknown, path: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((item, index) => texts(item, `${path}[${index}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) texts(item, `${path}.${key}`, out);
  }
  return out;
}

/** The ja or en words of the definition: the `ja`/`en` members of its labels and messages. */
function definitionTexts(locale: 'ja' | 'en'): [string, string][] {
  return texts(definition, 'definition').filter(([path]) => path.endsWith(`.${locale}`));
}

function localeTexts(locale: 'ja' | 'en'): [string, string][] {
  return texts(resources[locale], locale);
}

/** British spellings (and their forms) that have a US spelling; keys and wire values are not texts. */
const BRITISH = /\b(cancell(ed|ing)|organis\w*|colour\w*|behaviour\w*|centre\w*|neighbour\w*|favour\w*|licence|enrol|enrolment|judgement|whilst|analys(e|ed|ing)|recognis\w*|apologis\w*|customis\w*|finalis\w*|prioritis\w*|programme|travell(ed|ing))\b/i;

const JAPANESE = '[\\u3040-\\u30ff\\u3400-\\u9fff]';
const SPACE_BETWEEN_JAPANESE = new RegExp(`${JAPANESE}[ \\u00a0]+${JAPANESE}`);

describe('wording', () => {
  it('is US English in every English text (canceled, canceling, organize, color)', () => {
    const british = [...localeTexts('en'), ...definitionTexts('en')].filter(([, text]) => BRITISH.test(text));
    expect(british).toEqual([]);
  });

  it('keeps "cancellation" (US English too) and knows a British spelling when it sees one', () => {
    expect(BRITISH.test('Refunds and late cancellations')).toBe(false);
    expect(BRITISH.test('Your appointment was cancelled.')).toBe(true);
    expect(BRITISH.test('Organise my thoughts')).toBe(true);
  });

  it('has no half-width space between two Japanese words', () => {
    const spaced = [...localeTexts('ja'), ...definitionTexts('ja')].filter(([, text]) => SPACE_BETWEEN_JAPANESE.test(text));
    expect(spaced).toEqual([]);
  });
});
