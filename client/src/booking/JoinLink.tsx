/** The video session's link with its hint, or "the link comes later" while there is none: the confirmation and My booking say it alike. */
import { useTranslation } from 'react-i18next';

export function JoinLink({ joinUrl }: { joinUrl: string | null }) {
  const { t } = useTranslation('booking');
  if (joinUrl === null) return <p className="hint">{t('confirmed.joinLater')}</p>;
  return (
    <>
      <p>
        <a className="booking-join" href={joinUrl}>
          {t('confirmed.join')}
        </a>
      </p>
      <p className="hint">{t('confirmed.joinHint')}</p>
    </>
  );
}
