/**
 * A clinic document's facts in the person's words: its name (the known documents have one,
 * any other shows its id), its language, type, size and update time.
 */
import { useTranslation } from 'react-i18next';
import { formatSize, kindOf } from '../routes/Downloads';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';

export function useDocumentWords() {
  const { t } = useTranslation(['staff', 'screens']);
  const locale = useAppStore(selectLocale);
  return {
    document: (docId: string) => t(`staff:documents.names.${docId}`, { defaultValue: docId }),
    language: (code: string) => t(`staff:documents.languages.${code}`, { defaultValue: code }),
    type: (contentType: string) => {
      const kind = kindOf(contentType);
      return kind === 'other' ? contentType : t(`screens:downloads.kinds.${kind}`);
    },
    size: (bytes: number) => formatSize(bytes, locale),
    updated: (iso: string) => {
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return iso;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }).format(date);
    },
  };
}
