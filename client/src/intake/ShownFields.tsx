/**
 * The fields of one list (a step's, or a repeater item's) where their conditions show them.
 * The step and the repeater render a field's control differently (a form field, an item's
 * answer); what a field's place in its list means is the same for both, and is here: hidden
 * by its conditions, required by them, framed as `conditional` when an answer shows it (its
 * `when`, or the "other" of a choice), a choice's "other" text field inside its control, and
 * the rule and label its answers choose (its `cases`: a person abroad's name).
 */
import type { ReactNode } from 'react';
import { isFieldRequired, isFieldVisible, otherParents, resolveField, type FieldDef, type Scope } from './index';

/** A shown field's control; `other` (the "other" text field, or null) goes inside it. */
export type RenderControl = (field: FieldDef, required: boolean, other: ReactNode) => ReactNode;

export interface ShownFieldsProps {
  fields: readonly FieldDef[];
  scope: Scope;
  render: RenderControl;
  /** Mark each frame with its field's path (`data-path`): a step's fields, not an item's. */
  markPaths?: boolean;
}

export function ShownFields({ fields, scope, render, markPaths = false }: ShownFieldsProps) {
  const others = otherParents(fields);
  const frame = (field: FieldDef): ReactNode => {
    if (!isFieldVisible(field, fields, scope)) return null;
    const other = fields.find((candidate) => candidate.path === field.other);
    const conditional = field.when !== undefined || others.has(field.path);
    return (
      <div key={field.path} data-path={markPaths ? field.path : undefined} className={conditional ? 'conditional' : undefined}>
        {render(resolveField(field, fields, scope), isFieldRequired(field, fields, scope), other ? frame(other) : null)}
      </div>
    );
  };
  // An "other" text field is framed inside its choice, not on its own; a field answered by a
  // sibling's control (the family's side, by "Who is it?") has no frame at all.
  return <>{fields.filter((field) => !others.has(field.path) && field.askedWith === undefined).map(frame)}</>;
}
