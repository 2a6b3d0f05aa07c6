/**
 * An answer in readable form for the review page: option labels instead of codes, dates in
 * the person's style, lists joined, the "other" free text with the "Other" option; the family
 * step's "Who is it?" in the words of its one choice.
 */
import { formatDate } from '../i18n/format';
import type { Locale } from '../i18n/locale';
import { isIsoDate } from './dates';
import { allOptionsFor, definition, OTHER, type Category, type FieldDef, type OptionValue } from './definition';
import { readablePhone } from './phone';
import { relativeLabel } from './relatives';
import { isEmptyAnswer, listEntries } from './validate';

export interface DisplayOptions {
  locale: Locale;
  category: Category;
  /** Between entries of a list (", " in English, "、" in Japanese). */
  listSeparator: string;
  /** Staff: a condition's classification code after its name; the person never sees codes. */
  showCodes?: boolean;
}

/** Whether a field is (in any of its cases) a phone number checked by the phone library. */
function isPhoneField(field: FieldDef): boolean {
  const rules = [field.rule, ...(field.cases ?? []).map((candidate) => candidate.rule)];
  return rules.some((name) => name !== undefined && definition.rules[name]?.check === 'phone');
}

function textOf(field: FieldDef, value: unknown, options: DisplayOptions): string | null {
  if (isEmptyAnswer(field, value)) return null;
  if (typeof value !== 'string') return String(value);
  if (isPhoneField(field)) return readablePhone(value.trim()); // E.164 spaced as people write it
  return field.list === true ? listEntries(value).join(options.listSeparator) : value.trim();
}

/**
 * One answer for display, or null when there is none. `otherField`/`otherValue`: the field
 * named by `field.other` and its answer, shown with the "Other" option.
 */
export function formatAnswer(
  field: FieldDef,
  value: unknown,
  options: DisplayOptions,
  other?: { field: FieldDef; value: unknown },
): string | null {
  if (isEmptyAnswer(field, value)) return null;
  const { locale, category, listSeparator } = options;
  const optionLabel = (code: unknown): string => {
    // Retired options too: an old answer is named, not shown as its code.
    const option = allOptionsFor(field, category).find((candidate) => candidate.value === code);
    const label = option ? option.label[locale] : String(code);
    if (code === OTHER && other) {
      const text = textOf(other.field, other.value, options);
      return text === null ? label : `${label} (${text})`;
    }
    if (field.type === 'combobox' && options.showCodes === true && option && code !== OTHER) return `${label} (${String(code)})`;
    return label;
  };
  switch (field.type) {
    case 'text':
    case 'textarea':
      return textOf(field, value, options);
    case 'number':
      return String(value);
    case 'date':
      return isIsoDate(value) ? formatDate(value, locale) : String(value);
    case 'radio':
    case 'select':
    case 'scale':
      return optionLabel(value);
    case 'checkbox':
    case 'combobox':
      return Array.isArray(value) ? (value as OptionValue[]).map(optionLabel).join(listSeparator) : optionLabel(value);
    case 'repeater':
      return null; // items are shown field by field
  }
}

/**
 * "Who is it?" of a family-step item in words ("The woman's father", with the "other" text),
 * or null when no choice shows the stored pair (a relationship saved without its side).
 */
export function formatRelative(
  side: unknown,
  relationship: unknown,
  options: DisplayOptions,
  other?: { field: FieldDef; value: unknown },
): string | null {
  const label = relativeLabel(side, relationship, options.locale);
  if (label === null) return null;
  const text = relationship === OTHER && other ? textOf(other.field, other.value, options) : null;
  return text === null ? label : `${label} (${text})`;
}
