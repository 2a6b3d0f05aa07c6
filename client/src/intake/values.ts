/**
 * Answers as the form holds them and as they travel. The form keeps texts as typed (numbers and
 * dates too, until they are valid), choices as their codes; the wire carries the codes of docs/product.md "Enumerations",
 * trimmed texts, integers, ISO dates, lists, and null for "no answer".
 */
import { isFieldVisible, scopeOf } from './conditions';
import { parseTypedDate } from './dates';
import { allOptionsFor, definition, type Category, type FieldDef, type OptionValue, type StepDef } from './definition';
import { isRecord } from '../isRecord';
import { toHalfWidth } from '../validation/halfWidth';
import { deepEqual, getPath, setPath } from './paths';

/** One field's value in the form. */
export type FormValue = string | OptionValue | null | OptionValue[] | FormItem[];
/** One repeater item in the form: its fields' form values by relative path. */
export type FormItem = Record<string, unknown>;
/** A step's form values, document-shaped (react-hook-form names are the field paths). */
export type FormValues = Record<string, unknown>;

const isOptionValue = (value: unknown): value is OptionValue => typeof value === 'number' || typeof value === 'string';

/** A stored answer -> the form's value for it. */
export function toFormValue(field: FieldDef, stored: unknown): FormValue {
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'date':
    case 'number':
      return typeof stored === 'string' || typeof stored === 'number' ? String(stored) : '';
    case 'select':
      return isOptionValue(stored) ? optionNamed(field, stored) : null;
    case 'radio':
    case 'scale':
      return isOptionValue(stored) ? stored : null;
    case 'checkbox':
    case 'combobox':
      return Array.isArray(stored) ? stored.filter(isOptionValue) : [];
    case 'repeater':
      return Array.isArray(stored) ? stored.filter(isRecord).map((item) => itemFormValues(field, item)) : [];
  }
}

/**
 * An answer saved as text before its field became a list (the prefecture "東京都" typed before
 * the 47 prefectures had codes): the code of the option it names in either language, so that
 * it stays chosen; saving the step stores the code. Anything else is kept as it is.
 */
function optionNamed(field: FieldDef, stored: OptionValue): OptionValue {
  const options = allOptionsFor(field, null);
  if (typeof stored !== 'string' || options.some((option) => option.value === stored)) return stored;
  const text = stored.trim();
  return options.find((option) => option.label.ja === text || option.label.en === text)?.value ?? stored;
}

/** A stored repeater item (or nothing: a new item) -> its form values. */
export function itemFormValues(field: FieldDef, item: unknown = {}): FormItem {
  let values: FormItem = {};
  for (const child of field.fields ?? []) values = setPath(values, child.path, toFormValue(child, getPath(item, child.path)));
  return values;
}

/**
 * The form's value -> the wire value: texts trimmed (empty: null), a text with a rule (patient
 * ID, codes, phone, e-mail) and numbers with full-width letters and digits made half-width as
 * the server does (free text stays as written), numbers as numbers when they
 * are numbers (else the text, which validation refuses), empty lists null, items without their
 * empty or hidden fields.
 */
export function toWireValue(field: FieldDef, value: unknown, category: Category): unknown {
  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (typeof value !== 'string') return value ?? null;
      const trimmed = (field.rule === undefined ? value : toHalfWidth(value)).trim();
      return trimmed === '' ? null : trimmed;
    }
    case 'date': {
      if (typeof value !== 'string') return value ?? null;
      // Over maxDateStringLength: not read at all, not even trimmed (validation: invalidDate).
      if (value.length > definition.maxDateStringLength) return value;
      const trimmed = value.trim();
      // Typed but not yet taken by the picker (debounce): the same reading of the text.
      return trimmed === '' ? null : (parseTypedDate(trimmed) ?? trimmed);
    }
    case 'number': {
      if (typeof value === 'number') return value;
      if (typeof value !== 'string') return value ?? null;
      const text = toHalfWidth(value).trim();
      if (text === '') return null;
      return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    }
    case 'radio':
    case 'select':
    case 'scale':
      return value ?? null;
    case 'checkbox':
    case 'combobox':
      return Array.isArray(value) && value.length > 0 ? value : null;
    case 'repeater': {
      if (!Array.isArray(value) || value.length === 0) return null;
      return value.map((item) => wireItem(field, item, category));
    }
  }
}

/** One repeater item on the wire: only its shown, answered fields. */
function wireItem(field: FieldDef, item: unknown, category: Category): Record<string, unknown> {
  const children = field.fields ?? [];
  let wire: Record<string, unknown> = {};
  for (const child of children) wire = setPath(wire, child.path, toWireValue(child, getPath(item, child.path), category));
  const scope = scopeOf(wire, category);
  let kept: Record<string, unknown> = {};
  for (const child of children) {
    const childValue = getPath(wire, child.path);
    if (childValue !== null && childValue !== undefined && isFieldVisible(child, children, scope)) {
      kept = setPath(kept, child.path, childValue);
    }
  }
  return kept;
}

/** A step's form values from the appointment document (`prefill` overrides, e.g. ?id=). */
export function formValuesFor(step: StepDef, document: unknown, prefill: Record<string, FormValue> = {}): FormValues {
  let values: FormValues = {};
  for (const field of step.fields) {
    const stored = toFormValue(field, getPath(document, field.path));
    const override = prefill[field.path];
    const empty = stored === '' || stored === null || (Array.isArray(stored) && stored.length === 0);
    values = setPath(values, field.path, override !== undefined && empty ? override : stored);
  }
  return values;
}

/**
 * The document with a step's answers in place of the stored ones: what the step's conditions
 * read (a condition may name another step's answer).
 */
export function withStepAnswers(step: StepDef, wire: Record<string, unknown>, document: unknown): Record<string, unknown> {
  let merged: Record<string, unknown> = isRecord(document) ? document : {};
  for (const field of step.fields) merged = setPath(merged, field.path, getPath(wire, field.path) ?? null);
  return merged;
}

/**
 * A step's answers on the wire, document-shaped: every field of the step, hidden ones as null
 * (an answer left behind by an earlier choice is cleared when the step is saved). `document`
 * holds the other steps' answers that conditions may name.
 */
export function wireAnswersFor(step: StepDef, values: FormValues, category: Category, document: unknown = {}): Record<string, unknown> {
  let wire: Record<string, unknown> = {};
  for (const field of step.fields) wire = setPath(wire, field.path, toWireValue(field, getPath(values, field.path), category));
  const scope = scopeOf(withStepAnswers(step, wire, document), category);
  let shown: Record<string, unknown> = {};
  for (const field of step.fields) {
    shown = setPath(shown, field.path, isFieldVisible(field, step.fields, scope) ? getPath(wire, field.path) : null);
  }
  return shown;
}

/** The update `data` of a save: each of the step's field paths whose answer differs from the stored one. */
export function changedData(step: StepDef, wire: Record<string, unknown>, document: unknown): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of step.fields) {
    const next = getPath(wire, field.path) ?? null;
    const stored = getPath(document, field.path) ?? null;
    if (!deepEqual(next, stored)) data[field.path] = next;
  }
  return data;
}
