/**
 * "Who is it?" of the family step: one choice that answers whose family a relative is in (the
 * item's `side`) and the relationship together, so that the side is asked once. The choices
 * and their words are the definition's `relatives`; the answers stay the two stored codes.
 */
import type { Locale } from '../i18n/locale';
import { definition, type OptionValue, type RelativeGroup } from './definition';

export interface RelativeChoiceRef {
  /** Index of the group, then of the choice in it: the value of the `<option>`. */
  key: string;
  side: OptionValue | null;
  relationship: OptionValue;
}

export const relativeGroups: readonly RelativeGroup[] = definition.relatives.groups;

const choiceKey = (group: number, choice: number) => `${String(group)}.${String(choice)}`;

/**
 * The choice that shows a stored pair. The couple's children have no side; answers saved
 * before "Who is it?" gave them one, and they show as the child all the same (the side kept).
 */
export function relativeChoiceOf(side: unknown, relationship: unknown): RelativeChoiceRef | null {
  for (const [g, group] of relativeGroups.entries()) {
    for (const [c, choice] of group.choices.entries()) {
      if (choice.relationship !== relationship) continue;
      if (group.side === null || group.side === side) return { key: choiceKey(g, c), side: group.side, relationship: choice.relationship };
    }
  }
  return null;
}

export function relativeChoiceByKey(key: string): RelativeChoiceRef | null {
  const [g, c] = key.split('.').map(Number);
  const group = relativeGroups[g ?? -1];
  const choice = group?.choices[c ?? -1];
  return group && choice ? { key, side: group.side, relationship: choice.relationship } : null;
}

/** The words of a stored pair ("女性の父方の祖父"), or null when no choice shows it. */
export function relativeLabel(side: unknown, relationship: unknown, locale: Locale): string | null {
  const ref = relativeChoiceOf(side, relationship);
  if (ref === null) return null;
  const [g, c] = ref.key.split('.').map(Number);
  return relativeGroups[g ?? -1]?.choices[c ?? -1]?.label[locale] ?? null;
}
