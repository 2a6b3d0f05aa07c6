import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FAQ_RECEIVING_EMAIL } from '../auth/faqAnchors';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder';
import { callFunction } from '../realtime';

/** The domain our mails are sent from (`site-read`, from the server's MAIL_FROM); null until known. */
function useMailSenderDomain(): string | null {
  const [domain, setDomain] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    callFunction<{ mailSenderDomain?: unknown }>('site-read', null).then(
      (data) => {
        if (current && typeof data.mailSenderDomain === 'string' && data.mailSenderDomain !== '') setDomain(data.mailSenderDomain);
      },
      () => undefined, // without it the answer still says to allow PC e-mails
    );
    return () => {
      current = false;
    };
  }, []);
  return domain;
}

/** `/faq`: public answers about signing in and receiving our e-mails (linked from the login screens). */
export default function Faq() {
  const { t } = useTranslation('routes');
  const domain = useMailSenderDomain();
  return (
    <ScreenPlaceholder screen="faq">
      <section className="faq-entry" id={FAQ_RECEIVING_EMAIL} aria-labelledby={`${FAQ_RECEIVING_EMAIL}-q`}>
        <h2 id={`${FAQ_RECEIVING_EMAIL}-q`}>{t('faq.receivingEmail.question')}</h2>
        <ul>
          <li>{t('faq.receivingEmail.spam')}</li>
          <li>{domain === null ? t('faq.receivingEmail.carrierNoDomain') : t('faq.receivingEmail.carrier', { domain })}</li>
          <li>{t('faq.receivingEmail.validity')}</li>
        </ul>
      </section>
      <section className="faq-entry" id="link-invalid" aria-labelledby="link-invalid-q">
        <h2 id="link-invalid-q">{t('faq.linkInvalid.question')}</h2>
        <p>{t('faq.linkInvalid.answer')}</p>
      </section>
      <section className="faq-entry" id="other-device" aria-labelledby="other-device-q">
        <h2 id="other-device-q">{t('faq.otherDevice.question')}</h2>
        <p>{t('faq.otherDevice.answer')}</p>
      </section>
      <section className="faq-entry" id="contact" aria-labelledby="contact-q">
        <h2 id="contact-q">{t('faq.contact.question')}</h2>
        <p>
          <Link to="/contact">{t('faq.contact.answer')}</Link>
        </p>
      </section>
    </ScreenPlaceholder>
  );
}
