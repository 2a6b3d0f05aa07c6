/**
 * A refusal of the server next to the field it names (`details.fields`): what was refused, in
 * the person's language, then the server's reason as it wrote it (in English, marked so for
 * screen readers). The rules live on the server alone; this screen only repeats its word.
 */
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/FieldParts';

export type Subject = 'window' | 'exception' | 'languages' | 'holiday' | 'schedule';

export function FieldError({ id, sentence, subject }: { id?: string | undefined; sentence: string; subject: Subject }) {
  const { t, i18n } = useTranslation('staff');
  return (
    <ErrorText {...(id === undefined ? {} : { id })}>
      {t(`schedule.refused.${subject}`)}
      {sentence !== '' && (
        <>
          {' '}
          <span lang={i18n.language === 'en' ? undefined : 'en'}>({sentence})</span>
        </>
      )}
    </ErrorText>
  );
}
