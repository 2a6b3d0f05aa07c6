/**
 * "Withdraw your consent and delete your data" (docs/product.md "Erasure and retention"), for a
 * signed-in person (never staff: their account is the clinic's). It says plainly what happens,
 * asks once more in a dialog with a clear second button, calls `account-erase`, then signs out
 * here and the login screen confirms it. Mounted on the terms page; any screen of a signed-in
 * person may mount it (My booking does, at its bottom).
 */
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { auth } from '../auth/session';
import { isStaff } from '../auth/roles';
import { BookingDialog } from '../booking/BookingDialog';
import { BusyStatus } from '../components/Loading';
import { callFunction } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser } from '../store/selectors';

const CONSEQUENCES = ['booking', 'refund', 'answers', 'signOut', 'final'] as const;

export interface EraseAccountSectionProps {
  /** Its heading's level: 2 on a screen of its own sections, 3 inside one (the terms page). */
  headingLevel?: 2 | 3;
}

export function EraseAccountSection({ headingLevel = 2 }: EraseAccountSectionProps) {
  const { t } = useTranslation('account');
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const user = useAppStore(selectAuthUser);
  const [open, setOpen] = useState(false);
  const headingId = useId();
  if (user === null || isStaff(user)) return null;
  return (
    <section className="card erase-account" aria-labelledby={headingId}>
      <Heading id={headingId}>{t('erase.heading')}</Heading>
      <Consequences />
      <p className="actions">
        <button type="button" className="secondary danger" onClick={() => {
            setOpen(true);
          }}
        >
          {t('erase.open')}
        </button>
      </p>
      {open && (
        <EraseDialog
          onClose={() => {
            setOpen(false);
          }}
        />
      )}
    </section>
  );
}

function Consequences() {
  const { t } = useTranslation('account');
  return (
    <>
      <p>{t('erase.lead')}</p>
      <ul>
        {CONSEQUENCES.map((key) => (
          <li key={key}>{t(`erase.consequences.${key}`)}</li>
        ))}
      </ul>
    </>
  );
}

function EraseDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const setLoginNotice = useAppStore((state) => state.setLoginNotice);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // The safe answer has the focus first: Enter alone never deletes anything.
  const keep = useRef<HTMLButtonElement>(null);

  const erase = async () => {
    setBusy(true);
    setFailed(false);
    try {
      // Once: the person decides whether to try again.
      await callFunction('account-erase', {}, { maxAttempts: 1 });
    } catch {
      setBusy(false);
      setFailed(true);
      return;
    }
    // The server has ended every session (a `session` expired event follows): sign out here
    // first, so the login screen says why.
    await auth.signOut();
    setLoginNotice('accountErased');
    void navigate('/', { replace: true });
  };

  return (
    <BookingDialog
      title={t('erase.title')}
      role="alertdialog"
      description={
        <>
          <Consequences />
          <p>
            <strong>{t('erase.confirmQuestion')}</strong>
          </p>
        </>
      }
      initialFocus={keep}
      {...(busy ? {} : { onClose })}
    >
      {failed && (
        <div role="alert" className="notice">
          <p>{t('erase.failed')}</p>
          <p>
            <Link to="/contact">{t('erase.contactUs')}</Link>
          </p>
        </div>
      )}
      <div className="actions">
        <button type="button" className="primary danger" disabled={busy} onClick={() => void erase()}>
          {failed ? t('erase.retry') : t('erase.confirm')}
        </button>
        <button ref={keep} type="button" className="secondary" disabled={busy} onClick={onClose}>
          {t('erase.keep')}
        </button>
        <BusyStatus busy={busy}>{t('erase.erasing')}</BusyStatus>
      </div>
    </BookingDialog>
  );
}
