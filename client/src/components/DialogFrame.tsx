/**
 * The one frame of the app's modal dialogs (the booking screens' dialogs, the offline and
 * inactivity dialogs): rendered at the end of `<body>`, `aria-modal`, named and described by
 * ids of its content, every other child of `<body>` made `inert` while it is open (and, for
 * `hideOthers`, `aria-hidden`), restoring what each had when it closes. Focus moves in when it
 * opens (to `initialFocus`, else the first focusable element, else the dialog), Tab and
 * Shift+Tab wrap inside, and focus returns where it was when it closes. Escape calls
 * `onEscape`; without it Escape does nothing (and goes no further).
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogFrameProps {
  role: 'dialog' | 'alertdialog';
  labelledBy: string;
  describedBy?: string | undefined;
  className: string;
  backdropClassName: string;
  initialFocus?: RefObject<HTMLElement | null> | undefined;
  onEscape?: (() => void) | undefined;
  /** Also `aria-hidden` the rest of the page while open. */
  hideOthers?: boolean;
  /** Focus that gets out (a click behind, a script) is brought back. */
  holdFocus?: boolean;
  children: ReactNode;
}

export function DialogFrame(props: DialogFrameProps) {
  const { role, labelledBy, describedBy, className, backdropClassName, initialFocus, onEscape, hideOthers, holdFocus, children } =
    props;
  const dialogRef = useRef<HTMLDivElement>(null);
  const escapeRef = useRef(onEscape);
  useEffect(() => {
    escapeRef.current = onEscape;
  }, [onEscape]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const host = dialog.parentElement;
    // Everything else is out of reach while the dialog is open.
    const made: { element: Element; inert: string | null; ariaHidden: string | null }[] = [];
    for (const element of Array.from(document.body.children)) {
      if (element === host || element.contains(dialog)) continue;
      made.push({ element, inert: element.getAttribute('inert'), ariaHidden: element.getAttribute('aria-hidden') });
      element.setAttribute('inert', '');
      if (hideOthers) element.setAttribute('aria-hidden', 'true');
    }
    const first = initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog;
    first.focus();

    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !dialog.contains(event.target)) (initialFocus?.current ?? dialog).focus();
    };
    if (holdFocus) document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      for (const { element, inert, ariaHidden } of made) {
        if (inert === null) element.removeAttribute('inert');
        else element.setAttribute('inert', inert);
        if (!hideOthers) continue;
        if (ariaHidden === null) element.removeAttribute('aria-hidden');
        else element.setAttribute('aria-hidden', ariaHidden);
      }
      if (previous?.isConnected) previous.focus();
    };
    // Runs once per opening: focus must not jump when the content changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      const close = escapeRef.current;
      if (close) close();
      else event.stopPropagation(); // not dismissible: nothing closes it but what it waits for
      return;
    }
    const dialog = dialogRef.current;
    if (event.key !== 'Tab' || !dialog) return;
    const focusable = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className={backdropClassName}>
      <div
        ref={dialogRef}
        className={className}
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
