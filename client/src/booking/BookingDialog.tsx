/**
 * A modal dialog of the booking screens (cancel, payment failure): the app's dialog frame
 * (components/DialogFrame.tsx) with the rest of the page also hidden from assistive
 * technology, named by its heading and described by its message; Escape closes it when it may
 * be closed (`onClose`).
 */
import { useId, type ReactNode, type RefObject } from 'react';
import { DialogFrame } from '../components/DialogFrame';
import './booking.css';

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
  return (
    <DialogFrame
      role={role}
      labelledBy={titleId}
      describedBy={description === undefined ? undefined : descriptionId}
      className="booking-dialog"
      backdropClassName="booking-dialog-backdrop"
      initialFocus={initialFocus}
      onEscape={onClose}
      hideOthers
    >
      <h2 id={titleId}>{title}</h2>
      {description !== undefined && (
        <div id={descriptionId} className="booking-dialog-message">
          {description}
        </div>
      )}
      {children}
    </DialogFrame>
  );
}
