/** "Saving…", "Saved", or "will be sent when you are back online", announced politely. */
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../store';
import { selectSaveStatus } from '../store/selectors';

export function SaveStatusLine() {
  const { t } = useTranslation('intake');
  const status = useAppStore(selectSaveStatus);
  const text =
    status === 'saving'
      ? t('save.saving')
      : status === 'saved'
        ? t('save.saved')
        : status === 'offline'
          ? t('save.offline')
          : '';
  return (
    <p role="status" className={`save-status ${status}`}>
      {text}
    </p>
  );
}
