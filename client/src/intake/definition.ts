/**
 * The intake questionnaire, typed: steps, fields, option lists, conditions, rules and messages
 * all come from the one definition the server loads too (realtime/intake/definition.json).
 * Never retype a field, a code, a label or a rule in the client: add it to that file.
 */
import definitionJson from '../../../realtime/intake/definition.json';
import type { Locale } from '../i18n/locale';

/** A text in both interface languages. */
export interface Localized {
  ja: string;
  en: string;
}

/** A stored option code: the number of docs/product.md "Enumerations", or a string such as "Q90", "JP", "other". */
export type OptionValue = number | string;

export interface OptionDef {
  value: OptionValue;
  label: Localized;
  /** Conditions list only: an external (visible) anomaly. */
  external?: boolean;
  /** An old answer (the country "other"): named where it is shown, no longer offered or accepted. */
  retired?: boolean;
  /** "None": ticked alone or not at all (ticking it clears the others, and another clears it). */
  exclusive?: boolean;
}

/** `{"field", "in": [...]}`: the field's answer is one of the values. */
export interface InCondition {
  field: string;
  in: OptionValue[];
}

/** `{"field", "contains": value}`: the field's answer (a list) holds the value. */
export interface ContainsCondition {
  field: string;
  contains: OptionValue;
}

/** `{"field", "notIn": [...]}`: the field is answered, and not with one of the values. */
export interface NotInCondition {
  field: string;
  notIn: OptionValue[];
}

/** `{"service": [...]}`: the appointment's service category is one of these. */
export interface ServiceCondition {
  service: string[];
}

export type Condition = InCondition | NotInCondition | ContainsCondition | ServiceCondition;

/** A field's rule and label while its condition holds (a person abroad's name, phone). */
export interface FieldCase {
  when: Condition;
  rule?: string;
  label?: Localized;
}

export type FieldType =
  | 'text'
  | 'textarea'
  | 'number'
  | 'date'
  | 'radio'
  | 'select'
  | 'checkbox'
  | 'scale'
  | 'combobox'
  | 'repeater';

export interface FieldDef {
  /** Dot-separated path in the appointment document (relative to the item inside a repeater). */
  path: string;
  type: FieldType;
  label: Localized;
  required?: boolean;
  requiredWhen?: Condition;
  when?: Condition;
  /** Name of an option list, or (patientRole) a list name per service category with a `default`. */
  options?: string | Record<string, string>;
  /** Path of the free-text field shown when the option value "other" is chosen. */
  other?: string;
  /** A key of `rules`. */
  rule?: string;
  maxLength?: number;
  min?: number;
  max?: number;
  /** Dates: "today", "+300d" (relative to today in the clinic's time zone) or YYYY-MM-DD. */
  after?: string;
  before?: string;
  /** A date of birth: refused outside the ages of `birthDateAges`. */
  birthDate?: boolean;
  /** What the field's answer looks like, under it (the patient ID's format). */
  hint?: Localized;
  /** Comma-separated entries (the "other" conditions). */
  list?: boolean;
  maxItems?: number;
  minItems?: number;
  addLabel?: Localized;
  /** Repeater: the fields of one item, their paths relative to the item. */
  fields?: FieldDef[];
  /** The first case whose `when` holds gives the field its rule and label (conditions.ts resolveField). */
  cases?: FieldCase[];
  /** Select: options in the order of their labels in the person's language, `first` ones first. */
  sortOptions?: { first: OptionValue[] };
  /**
   * Repeater item: the sibling field whose one control also answers this one (the family's
   * `side` is answered by "Who is it?"); this field has no control of its own.
   */
  askedWith?: string;
  /** Repeater item: the sibling field that holds whose family; its choices are `relatives`. */
  sideField?: string;
}

export interface StepDef {
  id: string;
  route: string;
  title: Localized;
  when?: Condition;
  fields: FieldDef[];
}

/**
 * A text rule: a `pattern`, or a named `check` ("phone": a number libphonenumber accepts, read
 * in the country answered at `region` when it has no "+" and country code; stored E.164).
 */
export interface RuleDef {
  pattern?: string;
  check?: 'phone';
  region?: string;
  message: Localized;
  trim?: boolean;
}

export interface ConsentText {
  title: Localized;
  purpose: Localized;
  agree: Localized;
}

export type MessageKey =
  | 'required'
  | 'invalidOption'
  | 'invalidDate'
  | 'dateAfter'
  | 'dateBefore'
  | 'tooLong'
  | 'numberRange'
  | 'tooMany'
  | 'mustBeText'
  | 'consentRequired'
  | 'terms'
  | 'reviewMissing'
  | 'retention'
  | 'otherSeparator'
  | 'controlCharacters'
  | 'ageTooOld'
  | 'ageTooYoung'
  | 'exclusiveOption';

/** A Japanese era for typed dates: its name (平成), letter (H) and first day (year 1, 元年). */
export interface EraDef {
  name: string;
  letter: string;
  start: string;
}

/** One choice of "Who is it?": whose family (null: the couple's children) and the relationship. */
export interface RelativeChoice {
  relationship: OptionValue;
  label: Localized;
}

export interface RelativeGroup {
  side: OptionValue | null;
  label: Localized;
  choices: RelativeChoice[];
}

export interface IntakeDefinition {
  otherValue: string;
  unknownValue: string;
  maxDateStringLength: number;
  /** The possible ages of a person by a date of birth (fields with `birthDate`). */
  birthDateAges: { min: number; max: number };
  /** Newest first; an era ends the day before the next one starts. */
  eras: EraDef[];
  serviceCategories: string[];
  rules: Record<string, RuleDef>;
  messages: Record<MessageKey, Localized>;
  options: Record<string, OptionDef[]>;
  relatives: { groups: RelativeGroup[] };
  consent: Record<string, ConsentText>;
  steps: StepDef[];
}

export const definition: IntakeDefinition = definitionJson as IntakeDefinition;

export const OTHER: string = definition.otherValue;

/** A service category of the definition ("prenatal", "pgt", "cancer"), or null when unknown. */
export type Category = string | null;

export function isCategory(value: unknown): value is string {
  return typeof value === 'string' && definition.serviceCategories.includes(value);
}

export function stepById(id: string): StepDef {
  const step = definition.steps.find((candidate) => candidate.id === id);
  if (!step) throw new Error(`intake definition has no step "${id}"`);
  return step;
}

/**
 * Every option of a field, retired ones too (to name an old answer): its named list, or for a
 * per-category map the category's (else `default`).
 */
export function allOptionsFor(field: FieldDef, category: Category): OptionDef[] {
  const { options } = field;
  if (options === undefined) return [];
  if (typeof options === 'string') return definition.options[options] ?? [];
  const name = (category !== null ? options[category] : undefined) ?? options.default;
  return name === undefined ? [] : (definition.options[name] ?? []);
}

/** The options that can be chosen (retired ones left out). */
export function optionsFor(field: FieldDef, category: Category): OptionDef[] {
  return allOptionsFor(field, category).filter((option) => option.retired !== true);
}

/** Field types whose answer is one option code. */
export const singleChoiceTypes: ReadonlySet<FieldType> = new Set<FieldType>(['radio', 'select', 'scale']);
/** Field types whose answer is a list of option codes. */
export const multiChoiceTypes: ReadonlySet<FieldType> = new Set<FieldType>(['checkbox', 'combobox']);
/** Multi-option field types rendered as a `<fieldset>` with a `<legend>` (docs/product.md "Constants and limits"). */
export const groupTypes: ReadonlySet<FieldType> = new Set<FieldType>(['radio', 'checkbox', 'scale', 'repeater']);

/**
 * For a list of sibling fields (a step's, or a repeater item's): which field names each field
 * as its `other`, so that the free text can be shown with (and only with) the "other" option.
 */
export function otherParents(fields: readonly FieldDef[]): Map<string, FieldDef> {
  const parents = new Map<string, FieldDef>();
  for (const field of fields) if (field.other !== undefined) parents.set(field.other, field);
  return parents;
}

/** The text of a definition label in the interface language. */
export function localized(text: Localized, locale: Locale): string {
  return text[locale];
}
