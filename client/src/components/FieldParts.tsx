/**
 * The parts every form field shares (the questionnaire's fields, the sign-in and contact
 * forms): the label with the pink asterisk of a required field, a problem announced (a
 * field's, or a refused action's), the ids that describe a field, and an e-mail input's
 * attributes.
 */
import { useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { isPointerPressed, subscribePointerPress } from './pointerPress';

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

/**
 * `value`, except that while a pointer is pressed it stays what it was when the press began:
 * a change that moves the page waits until the click has landed.
 */
export function useSteadyWhilePressed<T>(value: T): T {
  const pressed = useSyncExternalStore(subscribePointerPress, isPointerPressed, () => false);
  const [held, setHeld] = useState(value);
  if (!pressed && held !== value) setHeld(value);
  return pressed ? held : value;
}

/**
 * A field's problem, on a line that is always there so that nothing below moves when it comes
 * or goes (a click right after a correction must land where the person aimed): one line is
 * reserved before any problem, and once a problem was shown the line keeps its height after it
 * is fixed (however many lines the message took). Changes wait for a pressed pointer's release.
 */
export function FieldError({ id, issue }: { id: string; issue: string | null }) {
  const shown = useSteadyWhilePressed(issue);
  const lineRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const line = lineRef.current;
    if (shown === null || line === null) return;
    // Only ever grows: the tallest message shown keeps its room.
    const kept = Number.parseFloat(line.style.minHeight) || 0;
    if (line.offsetHeight > kept) line.style.minHeight = `${String(line.offsetHeight)}px`;
  }, [shown]);
  return (
    <div ref={lineRef} className="field-error">
      {shown !== null && <ErrorText id={id}>{shown}</ErrorText>}
    </div>
  );
}
