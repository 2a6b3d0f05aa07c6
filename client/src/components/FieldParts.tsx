/**
 * The parts every form field shares (the questionnaire's fields, the sign-in and contact
 * forms): the label with the pink asterisk of a required field, a problem announced (a
 * field's, or a refused action's), the ids that describe a field, and an e-mail input's
 * attributes.
 */
import type { ReactNode } from 'react';

/** The pink asterisk after a required field's label or legend (its meaning is aria-required). */
export function RequiredMark() {
  return (
    <span className="required-mark" aria-hidden="true">
      *
    </span>
  );
}

/**
 * A field's label with the pink asterisk right after it (outside the `<label>`, so the label's
 * text is exactly the definition's).
 */
export function FieldLabel({ id, htmlFor, label, required }: { id?: string; htmlFor: string; label: string; required: boolean }) {
  return (
    <div className="label-row">
      <label id={id} htmlFor={htmlFor}>
        {label}
      </label>
      {required && <RequiredMark />}
    </div>
  );
}

/** `aria-describedby` of the ids that apply (false, null or undefined: left out); none: no attribute. */
export function describedBy(...ids: (string | null | false | undefined)[]): string | undefined {
  const joined = ids.filter((id): id is string => typeof id === 'string' && id !== '').join(' ');
  return joined === '' ? undefined : joined;
}

/**
 * An e-mail address input, the same wherever one is asked for: the phone's e-mail keyboard,
 * the browser's saved address, and no spell check (an address is not a word).
 */
export const EMAIL_INPUT = { type: 'email', autoComplete: 'email', inputMode: 'email', spellCheck: false } as const;

/** A problem, announced: a field's, a refused action's. */
export function ErrorText({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="error-text">
      {children}
    </p>
  );
}

/** A field's problem, or nothing when it has none. */
export function FieldError({ id, issue }: { id: string; issue: string | null }) {
  if (issue === null) return null;
  return <ErrorText id={id}>{issue}</ErrorText>;
}
