/**
 * A refusal of the server next to the field it names (`details.fields`), in the person's
 * language: the rule it broke (`details.codes`, worded in staff.json "schedule.rules") when
 * the server names one; else what was refused, then the server's reason as it wrote it (in
 * English, marked so). The rules themselves live on the server alone
 * (realtime/booking/schedule_rules.py); this screen only repeats its word.
 */
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/FieldParts';
import type { Problem } from './schedule';

export type Subject = 'window' | 'exception' | 'languages' | 'holiday' | 'schedule';

export function FieldError({ id, problem, subject }: { id?: string | undefined; problem: Problem; subject: Subject }) {
  const { t, i18n } = useTranslation('staff');
  const key = `schedule.rules.${problem.code ?? ''}`;
  const rule = problem.code !== null && i18n.exists(key, { ns: 'staff' }) ? t(key as 'schedule.rules.time') : null;
  return (
    <ErrorText {...(id === undefined ? {} : { id })}>
      {rule ?? (
        <>
          {t(`schedule.refused.${subject}`)}
          {problem.sentence !== '' && (
            <>
              {' '}
              <span lang={i18n.language === 'en' ? undefined : 'en'}>({problem.sentence})</span>
            </>
          )}
        </>
      )}
    </ErrorText>
  );
}
