import { useTranslation } from 'react-i18next';
import { ReturnHomeCountdown } from '../components/ReturnHomeCountdown';
import { Screen } from '../components/ScreenPlaceholder';
import { contract } from '../contract';

/** Seconds before /contact-confirmation returns to the start page. */
export const CONTACT_RETURN_HOME_SECONDS = 20;

/** /contact-confirmation: the message was sent; back to the start page after a countdown. */
export default function ContactConfirmation() {
  const { t } = useTranslation(['routes', 'screens']);
  return (
    <Screen title={t('routes:contactConfirmation.title')} lead={t('routes:contactConfirmation.description')}>
      <p>{t('screens:contactConfirmation.reply', { count: contract.contactReplyBusinessDays })}</p>
      <ReturnHomeCountdown seconds={CONTACT_RETURN_HOME_SECONDS} />
    </Screen>
  );
}
