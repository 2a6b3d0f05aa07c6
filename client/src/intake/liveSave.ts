/**
 * Answers saved as they are typed (docs/product.md "Behaviours across screens"): a moment
 * after the last change, the step's changed answers that pass the checks are sent through the
 * outbox (kept in memory and sent when the clinic's server can be reached). An answer with a
 * problem is not sent until it is corrected; an empty required answer is saved as cleared
 * ("Save and continue" still asks for it).
 */
import { changedData } from './values';
import type { StepDef } from './definition';
import type { IssueKey } from './validate';

/** How long after the last change the answers are saved (docs/product.md "Constants and limits"). */
export const LIVE_SAVE_DELAY_MS = 800;

/** The answers of `step` that differ from `document` and can be saved now, by path. */
export function savableChanges(
  step: StepDef,
  answers: Record<string, unknown>,
  document: unknown,
  issues: Record<string, IssueKey>,
): Record<string, unknown> {
  const blocked = Object.entries(issues)
    .filter(([, issue]) => issue !== 'required')
    .map(([path]) => path);
  return Object.fromEntries(
    Object.entries(changedData(step, answers, document)).filter(
      ([path]) => !blocked.some((issuePath) => issuePath === path || issuePath.startsWith(`${path}.`)),
    ),
  );
}
