/**
 * Conditions of the definition and what follows from them: which steps apply to a service
 * category, which fields are shown, which are required. Pure functions over a Scope.
 *
 * Semantics (mirrored by the server):
 * - `{"service": [...]}` holds when the appointment's category is listed (never when unknown).
 * - `{"field", "in": [...]}` holds when the field's answer is one of the values (a list answer:
 *   when any of its entries is); `{"field", "notIn": [...]}` when the field is answered and
 *   not with one of them; `{"field", "contains": v}` when the list answer holds v.
 *   Values compare strictly (1 is not "1").
 * - A field referred to by a condition counts as unanswered while it is itself hidden, so
 *   answers left behind by an earlier choice never show or require anything. A condition may
 *   name a field of another step ("No" to an earlier pregnancy hides the questions about its
 *   tests); the scope then holds the whole document.
 * - A field that another names as its `other` is shown only while that field is shown and its
 *   answer is (or holds) the option "other".
 * - Required: shown, and `required: true` or its `requiredWhen` holds.
 */
import { getPath } from './paths';
import {
  definition,
  otherParents,
  OTHER,
  type Category,
  type Condition,
  type FieldDef,
  type OptionValue,
  type StepDef,
} from './definition';

/** Where answers are read: the appointment document, or one repeater item. */
export interface Scope {
  get(path: string): unknown;
  category: Category;
}

/** A scope over a document-shaped object (or a repeater item): answers by dot-separated path. */
export function scopeOf(answers: unknown, category: Category): Scope {
  return { get: (path) => getPath(answers, path), category };
}

function matchesIn(value: unknown, values: readonly unknown[]): boolean {
  if (Array.isArray(value)) return value.some((entry) => values.includes(entry));
  return value !== undefined && value !== null && values.includes(value);
}

/** Whether the answer holds (or is) the option "other". */
export function hasOther(value: unknown): boolean {
  return Array.isArray(value) ? value.includes(OTHER) : value === OTHER;
}

/** A condition against a scope; `valueOf` may hide answers of hidden fields. */
export function evaluateCondition(
  condition: Condition,
  scope: Scope,
  valueOf: (path: string) => unknown = (path) => scope.get(path),
): boolean {
  if ('service' in condition) return scope.category !== null && condition.service.includes(scope.category);
  const value = valueOf(condition.field);
  if ('in' in condition) return matchesIn(value, condition.in);
  if ('notIn' in condition) return value !== undefined && value !== null && !condition.notIn.includes(value as OptionValue);
  return Array.isArray(value) && value.includes(condition.contains);
}

/** Whether a field of `siblings` (a step's fields, or a repeater item's) is shown. */
export function isFieldVisible(field: FieldDef, siblings: readonly FieldDef[], scope: Scope): boolean {
  return visible(field, siblings, scope, new Set());
}

/** A step's field by its path, with its step's fields (for conditions naming another step). */
const stepFields = new Map<string, { field: FieldDef; siblings: readonly FieldDef[] }>(
  definition.steps.flatMap((step) => step.fields.map((field) => [field.path, { field, siblings: step.fields }] as const)),
);

/** The answer at `path` as a condition sees it: none while that field is itself hidden. */
function conditionValue(path: string, siblings: readonly FieldDef[], scope: Scope, trail: Set<string>): unknown {
  const referred = siblings.find((candidate) => candidate.path === path);
  if (referred) return visible(referred, siblings, scope, trail) ? scope.get(path) : undefined;
  const elsewhere = stepFields.get(path);
  if (elsewhere && !visible(elsewhere.field, elsewhere.siblings, scope, trail)) return undefined;
  return scope.get(path);
}

function visible(field: FieldDef, siblings: readonly FieldDef[], scope: Scope, seen: Set<string>): boolean {
  if (seen.has(field.path)) return false; // a cycle in the definition: never shown
  const trail = new Set(seen).add(field.path);
  const valueOf = (path: string) => conditionValue(path, siblings, scope, trail);
  if (field.when && !evaluateCondition(field.when, scope, valueOf)) return false;
  const parent = otherParents(siblings).get(field.path);
  if (parent && (!visible(parent, siblings, scope, trail) || !hasOther(scope.get(parent.path)))) return false;
  return true;
}

/**
 * The field as it is asked: the rule and label of its first case whose condition holds (a
 * person abroad is asked for a Latin name), else its own. The server resolves it the same way
 * (realtime/intake/validate.py `resolved`).
 */
export function resolveField(field: FieldDef, siblings: readonly FieldDef[], scope: Scope): FieldDef {
  if (field.cases === undefined) return field;
  const trail = new Set([field.path]);
  const valueOf = (path: string) => {
    const referred = siblings.find((candidate) => candidate.path === path);
    if (referred && !visible(referred, siblings, scope, trail)) return undefined;
    return scope.get(path);
  };
  const chosen = field.cases.find((candidate) => evaluateCondition(candidate.when, scope, valueOf));
  if (chosen === undefined) return field;
  const rule = chosen.rule ?? field.rule;
  return { ...field, ...(rule !== undefined && { rule }), label: chosen.label ?? field.label };
}

/** Whether a shown field must be answered. */
export function isFieldRequired(field: FieldDef, siblings: readonly FieldDef[], scope: Scope): boolean {
  if (!isFieldVisible(field, siblings, scope)) return false;
  if (field.required === true) return true;
  if (!field.requiredWhen) return false;
  const trail = new Set([field.path]);
  return evaluateCondition(field.requiredWhen, scope, (path) => conditionValue(path, siblings, scope, trail));
}

/** Whether a step applies to the appointment (its `when`, usually a service condition). */
export function isStepApplicable(step: StepDef, scope: Scope): boolean {
  return step.when === undefined || evaluateCondition(step.when, scope);
}

/** The steps that apply, in definition order. */
export function applicableSteps(scope: Scope): StepDef[] {
  return definition.steps.filter((step) => isStepApplicable(step, scope));
}

/** After the questionnaire: the calendar, then the review (docs/product.md "Screens and routes"). */
export const APPOINTMENT_ROUTE = '/b/appointment';
export const REVIEW_ROUTE = '/b/review';

/**
 * Where "save and continue" (or a visit of a step that does not apply) leads: the next
 * applicable step after `stepId` in definition order, else the calendar.
 */
export function nextRoute(stepId: string, scope: Scope): string {
  const index = definition.steps.findIndex((step) => step.id === stepId);
  const next = definition.steps.slice(index + 1).find((step) => isStepApplicable(step, scope));
  return next?.route ?? APPOINTMENT_ROUTE;
}
