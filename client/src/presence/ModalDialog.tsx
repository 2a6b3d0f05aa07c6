/**
 * A modal alert dialog that cannot be dismissed: `role="alertdialog"`, `aria-modal`, named by
 * its title and described by its text (so opening it is announced), focus moved in on open
 * (to `initialFocus`, else the dialog) and kept in (Tab and Shift+Tab wrap; focus that
 * escapes is brought back), Escape does nothing, and focus returns where it was on close.
 * The page behind it is made `inert` by the layout.
 */
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
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
    (initialFocus?.current ?? dialog).focus();

    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !dialog.contains(event.target)) {
        (initialFocus?.current ?? dialog).focus();
      }
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      if (previous?.isConnected) previous.focus();
    };
  }, [initialFocus]);

  return (
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
    </div>
  );
}
