/**
 * Validation of answers exactly as the definition states it (the server checks the same rules
 * independently). Pure functions; the result of a check is a key: "required", a rule name
 * (katakana, latinName, phone, internationalPhone, providerCode, patientId, customAlphanumeric,
 * email) or a message key (invalidOption, invalidDate, ageTooOld, ageTooYoung, dateAfter,
 * dateBefore, tooLong, numberRange, tooMany, mustBeText, exclusiveOption). A field with `cases`
 * is checked with the rule its answers choose (conditions.ts resolveField); a phone rule reads
 * the country in the same answers.
 *
 * A text with a rule is checked with its full-width letters and digits made half-width, as the
 * server checks and saves it ("１０２９３８" is the patient ID 102938).
 *
 * Order of the checks of a text: rule first, then maxLength (a 5-character provider code is
 * refused by the code rule, not by tooLong). A value made only of whitespace never satisfies a rule, and counts as no
 * answer (so a required field says "*Required").
 */
import { isFieldRequired, isFieldVisible, resolveField, scopeOf, type Scope } from './conditions';
import { ageIssue, dateBoundsOf, dateOutOfBounds, isIsoDate } from './dates';
import { definition, optionsFor, type Category, type FieldDef, type OptionDef, type OptionValue, type StepDef } from './definition';
import { isRecord } from '../isRecord';
import { phoneE164 } from './phone';
import { toHalfWidth } from '../validation/halfWidth';

export type IssueKey = string;

/** What validation needs besides the answers. */
export interface ValidationContext {
  category: Category;
  /** Today in the clinic's time zone, YYYY-MM-DD (for "today" and "+300d" bounds). */
  today: string;
}

const compiled = new Map<string, RegExp>();

function ruleRegExp(name: string, pattern: string): RegExp {
  let regExp = compiled.get(name);
  if (!regExp) {
    regExp = new RegExp(pattern, 'u');
    compiled.set(name, regExp);
  }
  return regExp;
}

/**
 * Whether a text satisfies a rule of the definition (trimmed first where the rule says `trim`).
 * `scope`: the answers a phone rule reads its country in.
 */
export function ruleAccepts(name: string, value: string, scope?: Scope): boolean {
  const rule = definition.rules[name];
  if (!rule) throw new Error(`intake definition has no rule "${name}"`);
  const candidate = rule.trim === true ? value.trim() : value;
  if (candidate.trim() === '') return false;
  if (rule.pattern !== undefined && !ruleRegExp(name, rule.pattern).test(candidate)) return false;
  if (rule.check === 'phone') {
    const region = rule.region !== undefined ? scope?.get(rule.region) : undefined;
    return phoneE164(candidate, region) !== null;
  }
  return true;
}

/** Length as the server counts it: Unicode code points. */
export function textLength(value: string): number {
  return Array.from(value).length;
}

/** The entries of a comma-separated list answer ("a, b,,c" -> ["a", "b", "c"]). */
export function listEntries(value: string): string[] {
  return value
    .split(/[,，、]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** No answer: nothing, an empty or whitespace-only text, an empty list. */
export function isEmptyAnswer(field: Pick<FieldDef, 'list'>, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return field.list === true ? listEntries(value).length === 0 : value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** The options of a field that exclude every other ("none"). */
export function exclusiveValues(field: FieldDef, category: Category): OptionValue[] {
  return optionsFor(field, category)
    .filter((option) => option.exclusive === true)
    .map((option) => option.value);
}

/**
 * A multi-choice answer after ticking (or unticking) `option`, in the order of the list: ticking
 * an exclusive option ("none") leaves it alone, ticking another clears the exclusive ones.
 */
export function toggleChoice(
  options: readonly OptionDef[],
  chosen: readonly OptionValue[],
  option: OptionValue,
  checked: boolean,
): OptionValue[] {
  const exclusive = new Set(options.filter((candidate) => candidate.exclusive === true).map((candidate) => candidate.value));
  let next = new Set(chosen);
  if (!checked) next.delete(option);
  else if (exclusive.has(option)) next = new Set([option]);
  else {
    for (const value of exclusive) next.delete(value);
    next.add(option);
  }
  return options.map((candidate) => candidate.value).filter((value) => next.has(value));
}

function inOptions(field: FieldDef, value: unknown, category: Category): boolean {
  return optionsFor(field, category).some((option) => option.value === value);
}

/**
 * The problem of one answer that is there (not empty), or null. Repeaters are checked by
 * `fieldIssues` (their items have fields of their own). `field` as it is asked (resolveField);
 * `scope`: the answers its rule may read (a phone's country).
 */
export function checkValue(field: FieldDef, value: unknown, context: ValidationContext, scope?: Scope): IssueKey | null {
  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (typeof value !== 'string') return 'mustBeText';
      const text = field.rule === undefined ? value : toHalfWidth(value);
      if (field.rule !== undefined && !ruleAccepts(field.rule, text, scope)) return field.rule;
      if (field.maxLength !== undefined && textLength(text) > field.maxLength) return 'tooLong';
      return null;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'numberRange';
      if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) {
        return 'numberRange';
      }
      return null;
    }
    case 'date': {
      if (!isIsoDate(value)) return 'invalidDate';
      const age = field.birthDate === true ? ageIssue(value, context.today) : null;
      return age ?? dateOutOfBounds(value, dateBoundsOf(field, context.today));
    }
    case 'radio':
    case 'select':
    case 'scale':
      return inOptions(field, value, context.category) ? null : 'invalidOption';
    case 'checkbox':
    case 'combobox': {
      if (!Array.isArray(value)) return 'invalidOption';
      if (new Set(value).size !== value.length) return 'invalidOption';
      if (!value.every((entry) => inOptions(field, entry, context.category))) return 'invalidOption';
      const alone = exclusiveValues(field, context.category);
      return value.length > 1 && value.some((entry) => alone.includes(entry as OptionValue)) ? 'exclusiveOption' : null;
    }
    case 'repeater': {
      if (!Array.isArray(value) || !value.every(isRecord)) return 'invalidOption';
      if (field.maxItems !== undefined && value.length > field.maxItems) return 'tooMany';
      return null;
    }
  }
}

/**
 * Every problem of the shown fields of a list of sibling fields, keyed by full path
 * (`prefix` + path; repeater items as "<repeater path>.<index>.<item field path>").
 */
export function fieldIssues(
  fields: readonly FieldDef[],
  scope: Scope,
  context: ValidationContext,
  prefix = '',
): Record<string, IssueKey> {
  const issues: Record<string, IssueKey> = {};
  for (const listed of fields) {
    if (!isFieldVisible(listed, fields, scope)) continue;
    const field = resolveField(listed, fields, scope);
    const value = scope.get(field.path);
    const key = `${prefix}${field.path}`;
    const tooFew =
      field.type === 'repeater' && field.minItems !== undefined && Array.isArray(value) && value.length < field.minItems;
    if (isEmptyAnswer(field, value) || (tooFew && isFieldRequired(field, fields, scope))) {
      if (isFieldRequired(field, fields, scope)) issues[key] = 'required';
      continue;
    }
    const issue = checkValue(field, value, context, scope);
    if (issue !== null) {
      issues[key] = issue;
      continue;
    }
    if (field.type === 'repeater' && Array.isArray(value)) {
      value.forEach((item, index) => {
        Object.assign(
          issues,
          fieldIssues(field.fields ?? [], scopeOf(item, scope.category), context, `${key}.${String(index)}.`),
        );
      });
    }
  }
  return issues;
}

/** Every problem of a step's answers (`answers` is document-shaped). */
export function stepIssues(step: StepDef, answers: unknown, context: ValidationContext): Record<string, IssueKey> {
  return fieldIssues(step.fields, scopeOf(answers, context.category), context);
}

/** The required answers a step is missing, as full paths, in definition order. */
export function missingAnswers(step: StepDef, answers: unknown, context: ValidationContext): string[] {
  return Object.entries(stepIssues(step, answers, context))
    .filter(([, issue]) => issue === 'required')
    .map(([path]) => path);
}
