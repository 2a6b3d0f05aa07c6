/**
 * Invite a member (`staff-invite`): address, role, and the counselor they are when the role is
 * counselor (only counselors nobody active is yet). react-hook-form checks what can be checked
 * here; the server's refusal lands on the field it names, in the user's language.
 */
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedBy, EMAIL_INPUT, ErrorText, FieldError } from '../../components/FieldParts';
import { BusyStatus } from '../../components/Loading';
import { callFunction } from '../../realtime';
import { useAppStore } from '../../store';
import { selectLocale } from '../../store/selectors';
import { emailFieldError, normalizeEmail } from '../../validation/email';
import { counselorName, refusalOf, type Member, type TeamCounselor, type TeamRole } from './team';

interface InviteValues {
  email: string;
  role: TeamRole;
  counselorId: string;
}

const EMPTY: InviteValues = { email: '', role: 'counselor', counselorId: '' };

export function InviteForm({
  clinicId,
  counselors,
  onInvited,
}: {
  clinicId: string;
  counselors: readonly TeamCounselor[];
  onInvited: (member: Member) => void;
}) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<InviteValues>({ defaultValues: EMPTY });
  const role = useWatch({ control, name: 'role' });
  const free = counselors.filter((counselor) => counselor.staffId === null);

  const submit = async (values: InviteValues) => {
    setDone(null);
    setProblem(null);
    const email = normalizeEmail(values.email);
    const data = { clinicId, email, role: values.role, ...(values.role === 'counselor' ? { counselorId: values.counselorId } : {}) };
    try {
      const reply = await callFunction<{ member: Member }>('staff-invite', data);
      reset(EMPTY);
      setDone(t('team.invite.sent', { email: reply.member.email }));
      onInvited(reply.member);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal.field === 'email' || refusal.field === 'counselorId') {
        setError(refusal.field, { type: 'server', message: t(refusal.key) });
      } else {
        setProblem(t(refusal.key));
      }
    }
  };

  const emailError = errors.email?.message ?? null;
  const counselorError = errors.counselorId?.message ?? null;
  return (
    <form
      className="card staff-team-invite"
      noValidate
      aria-labelledby="team-invite-title"
      onSubmit={(event) => {
        void handleSubmit(submit)(event);
      }}
    >
      <h2 id="team-invite-title">{t('team.invite.title')}</h2>
      <p className="hint">{t('team.invite.lead')}</p>
      <label htmlFor="team-invite-email">{t('team.invite.email')}</label>
      <input
        id="team-invite-email"
        {...EMAIL_INPUT}
        autoComplete="off"
        aria-invalid={emailError !== null}
        aria-describedby={describedBy(emailError !== null && 'team-invite-email-error')}
        {...register('email', {
          validate: (value) => {
            const key = emailFieldError(value);
            return key === null ? true : t(key === 'emailRequired' ? 'team.invite.emailRequired' : 'errors:invalidEmail');
          },
        })}
      />
      <FieldError id="team-invite-email-error" issue={emailError} />
      <label htmlFor="team-invite-role">{t('team.invite.role')}</label>
      <select id="team-invite-role" {...register('role')}>
        <option value="counselor">{t('team.roles.counselor')}</option>
        <option value="clinic_admin">{t('team.roles.clinic_admin')}</option>
      </select>
      {role === 'counselor' && (
        <>
          <label htmlFor="team-invite-counselor">{t('team.invite.counselor')}</label>
          <select
            id="team-invite-counselor"
            aria-invalid={counselorError !== null}
            aria-describedby={describedBy(counselorError !== null && 'team-invite-counselor-error', free.length === 0 && 'team-invite-none')}
            {...register('counselorId', { validate: (value) => value !== '' || t('team.refused.needsCounselor') })}
          >
            <option value="">{t('team.invite.chooseCounselor')}</option>
            {free.map((counselor) => (
              <option key={counselor.counselorId} value={counselor.counselorId}>
                {counselorName(counselor, locale)}
              </option>
            ))}
          </select>
          {free.length === 0 && (
            <p id="team-invite-none" className="hint">
              {t('team.invite.noFreeCounselor')}
            </p>
          )}
          <FieldError id="team-invite-counselor-error" issue={counselorError} />
        </>
      )}
      {problem !== null && <ErrorText>{problem}</ErrorText>}
      <div className="actions">
        <button type="submit" className="primary" disabled={isSubmitting}>
          {t('team.invite.submit')}
        </button>
        <BusyStatus busy={isSubmitting}>{t('team.invite.sending')}</BusyStatus>
      </div>
      {done !== null && (
        <p role="status" className="notice">
          {done}
        </p>
      )}
    </form>
  );
}
