/**
 * Asked before signing out while a time is held (docs/product.md "The hold countdown"):
 * signing out stops keeping the time, so someone else may book it. "Stay signed in" has the
 * focus (and Escape); "Sign out" goes on. Lazily loaded by the Layout.
 */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { BookingDialog } from './BookingDialog';

export default function SignOutDialog({ onSignOut, onStay }: { onSignOut: () => void; onStay: () => void }) {
  const { t } = useTranslation('booking');
  const stayRef = useRef<HTMLButtonElement>(null);
  return (
    <BookingDialog
      role="alertdialog"
      title={t('signOutHeld.title')}
      description={<p>{t('signOutHeld.message')}</p>}
      onClose={onStay}
      initialFocus={stayRef}
    >
      <div className="actions">
        <button ref={stayRef} type="button" className="primary" onClick={onStay}>
          {t('signOutHeld.stay')}
        </button>
        <button type="button" className="secondary danger" onClick={onSignOut}>
          {t('signOutHeld.signOut')}
        </button>
      </div>
    </BookingDialog>
  );
}
