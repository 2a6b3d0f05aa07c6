import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { SignInEntry } from './emailLink';
import { useAppStore, type LoginNotice } from '../store';
import { selectAuthUser, selectCurrentStatus, selectLoginNotice } from '../store/selectors';
import { isBooked, MY_BOOKING_ROUTE } from '../booking/paths';
import { CheckInbox } from './CheckInbox';
import { EmailForm } from './EmailForm';
import { nextPathAfterSignIn } from './nextPath';
import { isStaff, STAFF_HOME } from './roles';
import { useSignInLink } from './useSignInLink';

const noticeKeys = {
  appointmentFailed: 'errors:appointmentFailed',
  sessionEnded: 'errors:unauthenticated',
  appointmentCancelled: 'booking:cancel.done',
  accountErased: 'account:erase.done',
} as const satisfies Record<LoginNotice, string>;

/**
 * The content of the login screens: why the person was signed out (if they were), the e-mail
 * form, then "check your inbox". A signed-in person is offered to continue instead; one whose
 * appointment is booked goes on to it (`?next=` first, else My booking).
 */
/**
 * Why the person was signed out. Its words come from the screen that signed them out (booking,
 * account): those namespaces load here only when there is a notice to show.
 */
function SignedOutNotice({ notice }: { notice: LoginNotice }) {
  const { t } = useTranslation(['errors', 'booking', 'account']);
  return (
    <p role="alert" className="notice">
      {t(noticeKeys[notice])}
    </p>
  );
}

/** A signed-in staff member's way on to the board (the staff namespace loads only for them). */
function ToBoardLink({ to }: { to: string }) {
  const { t } = useTranslation('staff');
  return <Link to={to}>{t('secondFactor.toBoard')}</Link>;
}

export function SignInPanel({ entry }: { entry: SignInEntry }) {
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const user = useAppStore(selectAuthUser);
  const notice = useAppStore(selectLoginNotice);
  const booked = useAppStore((state) => isBooked(selectCurrentStatus(state)));
  const [search] = useSearchParams();
  const link = useSignInLink(entry);
  const [draft, setDraft] = useState('');

  if (user && booked && !isStaff(user)) return <Navigate to={nextPathAfterSignIn(search, MY_BOOKING_ROUTE)} replace />;
  if (user) {
    return (
      <div className="card">
        <p>{t('routes:login.signedInAs', { email: user.email })}</p>
        <p>
          {isStaff(user) ? (
            <ToBoardLink to={nextPathAfterSignIn(search, STAFF_HOME)} />
          ) : (
            <Link to={nextPathAfterSignIn(search)}>{t('routes:login.continue')}</Link>
          )}
        </p>
      </div>
    );
  }

  const error = link.error === null ? null : t(link.error);
  return (
    <>
      {notice && <SignedOutNotice notice={notice} />}
      {link.sentTo === null ? (
        <EmailForm
          submitLabel={t('routes:login.submit')}
          onSubmit={link.send}
          defaultEmail={draft}
          carrierNotice
          error={error}
          busy={link.busy}
        />
      ) : (
        <CheckInbox
          email={link.sentTo}
          resent={link.resent}
          busy={link.busy}
          error={error}
          onResend={link.resend}
          onChangeAddress={() => {
            setDraft(link.sentTo ?? '');
            link.changeAddress();
          }}
        />
      )}
    </>
  );
}

/** The clinic and service of a login screen's query (`clinicId`, `serviceId`). */
export function entryFromQuery(search: URLSearchParams, clinicId?: string): SignInEntry {
  const entry: SignInEntry = {};
  const clinic = clinicId ?? search.get('clinicId');
  const service = search.get('serviceId');
  if (clinic) entry.clinicId = clinic;
  if (service) entry.serviceId = service;
  return entry;
}
