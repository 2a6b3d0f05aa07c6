/**
 * The frame of the offline and inactivity dialogs: the app's dialog frame as an
 * `alertdialog` that cannot be dismissed (Escape does nothing) and holds the focus, named by
 * its title and described by its message, so that its opening is announced. It opens over a
 * booking dialog too (that one becomes inert below it).
 */
import { useId, type ReactNode, type RefObject } from 'react';
import { DialogFrame } from '../components/DialogFrame';
import './presence.css';

export interface AlertDialogProps {
  title: string;
  description: ReactNode;
  /** What gets focus (the dialog's one button). */
  initialFocus: RefObject<HTMLElement | null>;
  className: string;
  children: ReactNode;
}

export function AlertDialog({ title, description, initialFocus, className, children }: AlertDialogProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;
  return (
    <DialogFrame
      role="alertdialog"
      labelledBy={titleId}
      describedBy={descriptionId}
      initialFocus={initialFocus}
      className={`modal-dialog ${className}`}
      backdropClassName="modal-backdrop"
      holdFocus
    >
      <h2 id={titleId}>{title}</h2>
      <div id={descriptionId}>{description}</div>
      {children}
    </DialogFrame>
  );
}
