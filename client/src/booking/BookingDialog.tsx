/**
 * A modal dialog of the booking screens (cancel, payment failure): `aria-modal`, named by its
 * heading and described by its message, announced when it opens (focus moves into it), the
 * rest of the page inert and hidden from assistive technology, Tab and Shift+Tab kept inside,
 * Escape closes it when it may be closed, and focus returns where it was when it closes.
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import './booking.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface BookingDialogProps {
  title: string;
  /** The dialog's message (its description). */
  description?: ReactNode;
  /** `alertdialog` for a failure that needs an answer. */
  role?: 'dialog' | 'alertdialog';
  /** Escape calls it; without it Escape does nothing. */
  onClose?: () => void;
  /** What gets focus first (default: the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  children?: ReactNode;
}

export function BookingDialog({ title, description, role = 'dialog', onClose, initialFocus, children }: BookingDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const host = dialog.parentElement;
    // Everything else is out of reach while the dialog is open.
    const hidden: { element: Element; inert: string | null; ariaHidden: string | null }[] = [];
    for (const element of Array.from(document.body.children)) {
      if (element === host || element.contains(dialog)) continue;
      hidden.push({ element, inert: element.getAttribute('inert'), ariaHidden: element.getAttribute('aria-hidden') });
      element.setAttribute('inert', '');
      element.setAttribute('aria-hidden', 'true');
    }
    const first = initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog;
    first.focus();
    return () => {
      for (const { element, inert, ariaHidden } of hidden) {
        if (inert === null) element.removeAttribute('inert');
        else element.setAttribute('inert', inert);
        if (ariaHidden === null) element.removeAttribute('aria-hidden');
        else element.setAttribute('aria-hidden', ariaHidden);
      }
      if (previous?.isConnected) previous.focus();
    };
    // Runs once per opening: focus must not jump when the content changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && closeRef.current) {
      event.preventDefault();
      closeRef.current();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="booking-dialog-backdrop">
      <div
        ref={ref}
        className="booking-dialog"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description === undefined ? undefined : descriptionId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{title}</h2>
        {description !== undefined && (
          <div id={descriptionId} className="booking-dialog-message">
            {description}
          </div>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}
