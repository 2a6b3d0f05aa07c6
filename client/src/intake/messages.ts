/**
 * The words of a validation problem, from the definition in the person's language: the
 * required message, a rule's message, or a message with its {{date}} / {{max}} / {{min}}
 * filled in for the field concerned.
 */
import { formatDate } from '../i18n/format';
import type { Locale } from '../i18n/locale';
import { dateBoundsOf } from './dates';
import { definition, optionsFor, type FieldDef, type MessageKey } from './definition';

/** "{{max}} characters" with {max: 4} -> "4 characters". Unknown names stay as written. */
export function fillMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(definition.messages, key);
}

/** Whether the definition has words for this problem key. */
export function isKnownIssue(key: string): boolean {
  return Object.hasOwn(definition.rules, key) || isMessageKey(key);
}

/**
 * The message of a problem `key` ("required", a rule name or a message key) for `field`, in
 * `locale`. `today` is the clinic's date (date bounds). A key the definition does not know, or
 * a message whose placeholders the field cannot fill, gives `fallback` (the server's own
 * words) when there is one; an unknown key without it gives the generic invalid-option message.
 */
export function issueMessage(
  key: string,
  field: FieldDef | null,
  locale: Locale,
  today: string,
  fallback?: string,
): string {
  const rule = definition.rules[key];
  if (rule) return rule.message[locale];
  if (!isMessageKey(key)) return fallback ?? definition.messages.invalidOption[locale];
  const template = definition.messages[key][locale];
  const bounds = field ? dateBoundsOf(field, today) : {};
  const values: Record<string, string | number> = {};
  if (key === 'dateAfter' && bounds.after !== undefined) values.date = formatDate(bounds.after, locale);
  if (key === 'dateBefore' && bounds.before !== undefined) values.date = formatDate(bounds.before, locale);
  const max = key === 'tooMany' ? field?.maxItems : key === 'tooLong' ? field?.maxLength : field?.max;
  if (max !== undefined) values.max = max;
  if (field?.min !== undefined) values.min = field.min;
  if (key === 'ageTooOld') values.max = definition.birthDateAges.max;
  if (key === 'ageTooYoung') values.min = definition.birthDateAges.min;
  if (key === 'exclusiveOption' && field) {
    const alone = optionsFor(field, null).filter((option) => option.exclusive === true);
    values.option = alone.map((option) => option.label[locale]).join(locale === 'ja' ? '」「' : ', ');
  }
  const filled = fillMessage(template, values);
  // A placeholder this field cannot fill (e.g. an item's date bound reported at its repeater):
  // the server's own words say more.
  return /\{\{\s*\w+\s*\}\}/.test(filled) && fallback !== undefined ? fallback : filled;
}

/** A message of the definition with nothing to fill (retention, terms, reviewMissing, ...). */
export function definitionMessage(key: MessageKey, locale: Locale): string {
  return definition.messages[key][locale];
}
