import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FAQ_RECEIVING_EMAIL } from './faqAnchors';
import { ErrorText } from '../components/FieldParts';

export interface CheckInboxProps {
  email: string;
  resent: boolean;
  busy: boolean;
  /** A translated error of the last resend. */
  error: string | null;
  onResend: () => void;
  /** Offered where another address may be typed (the login screens). */
  onChangeAddress?: () => void;
}

/** "Check your inbox": names the address, offers to send again or use another address. */
export function CheckInbox({ email, resent, busy, error, onResend, onChangeAddress }: CheckInboxProps) {
  const { t } = useTranslation('routes');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus(); // the form it replaces had the focus
  }, []);
  return (
    <section className="card" aria-labelledby="check-inbox-heading">
      <h2 id="check-inbox-heading" ref={heading} tabIndex={-1}>
        {t('checkInbox.heading')}
      </h2>
      <p role="status">{t(resent ? 'checkInbox.resentTo' : 'checkInbox.sentTo', { email })}</p>
      <p className="hint">{t('checkInbox.validity')}</p>
      {error && <ErrorText>{error}</ErrorText>}
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={onResend}>
          {t('checkInbox.resend')}
        </button>
        {onChangeAddress && (
          <button type="button" className="link-button" onClick={onChangeAddress}>
            {t('checkInbox.changeAddress')}
          </button>
        )}
      </div>
      <p className="hint">
        <Link to={`/faq#${FAQ_RECEIVING_EMAIL}`}>{t('checkInbox.notArrived')}</Link>
      </p>
    </section>
  );
}
