/**
 * A modal alert dialog that cannot be dismissed: `role="alertdialog"`, `aria-modal`, named by
 * its title and described by its text (so opening it is announced), focus moved in on open
 * (to `initialFocus`, else the dialog) and kept in (Tab and Shift+Tab wrap; focus that
 * escapes is brought back), Escape does nothing, and focus returns where it was on close.
 *
 * It is rendered at the end of `<body>` and makes every other child of `<body>` `inert` while
 * open (the page, and a booking dialog that may be open below it: the offline and inactivity
 * dialogs come first), restoring what each had when it closes.
 */
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import './presence.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface ModalDialogProps {
  titleId: string;
  descriptionId: string;
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}

export function ModalDialog({ titleId, descriptionId, initialFocus, className, children }: ModalDialogProps) {
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const host = dialog.parentElement;
    const made: { element: Element; inert: string | null }[] = [];
    for (const element of Array.from(document.body.children)) {
      if (element === host || element.contains(dialog)) continue;
      made.push({ element, inert: element.getAttribute('inert') });
      element.setAttribute('inert', '');
    }
    (initialFocus?.current ?? dialog).focus();

    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !dialog.contains(event.target)) {
        (initialFocus?.current ?? dialog).focus();
      }
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      for (const { element, inert } of made) {
        if (inert === null) element.removeAttribute('inert');
        else element.setAttribute('inert', inert);
      }
      if (previous?.isConnected) previous.focus();
    };
  }, [initialFocus]);

  return createPortal(
    <div className="modal-backdrop">
      <div
        ref={dialogRef}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        className={['modal-dialog', className].filter(Boolean).join(' ')}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Not dismissible: nothing closes it but what it is waiting for.
            event.preventDefault();
            event.stopPropagation();
            return;
          }
          if (event.key !== 'Tab') return;
          const dialog = dialogRef.current;
          if (!dialog) return;
          const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
          const first = focusable[0];
          const last = focusable[focusable.length - 1];
          if (first === undefined || last === undefined) {
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
        }}
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
