/**
 * The two changes of one member, each confirmed in the product's dialog (BookingDialog):
 * another role (and counselor), and removing or restoring access (`staff-update`). Both end
 * the member's sessions, which the dialogs say before anyone confirms.
 */
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BookingDialog } from '../../booking/BookingDialog';
import { describedBy, ErrorText, FieldError } from '../../components/FieldParts';
import { BusyStatus } from '../../components/Loading';
import { callFunction } from '../../realtime';
import { useAppStore } from '../../store';
import { selectLocale } from '../../store/selectors';
import { counselorName, refusalOf, type Member, type TeamCounselor, type TeamRole } from './team';

async function update(clinicId: string, member: Member, change: Record<string, unknown>): Promise<Member> {
  const reply = await callFunction<{ member: Member }>('staff-update', { clinicId, staffId: member.staffId, ...change });
  return reply.member;
}

interface RoleValues {
  role: TeamRole;
  counselorId: string;
}

export function RoleDialog({
  clinicId,
  member,
  counselors,
  onDone,
  onClose,
}: {
  clinicId: string;
  member: Member;
  counselors: readonly TeamCounselor[];
  onDone: (member: Member) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const [problem, setProblem] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RoleValues>({ defaultValues: { role: member.role, counselorId: member.counselorId ?? '' } });
  const role = useWatch({ control, name: 'role' });
  const choices = counselors.filter((c) => c.staffId === null || c.staffId === member.staffId);
  const counselorError = errors.counselorId?.message ?? null;

  const submit = async (values: RoleValues) => {
    setProblem(null);
    const change = values.role === 'counselor' ? { role: values.role, counselorId: values.counselorId } : { role: values.role };
    try {
      onDone(await update(clinicId, member, change));
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal.field === 'counselorId') setError('counselorId', { type: 'server', message: t(refusal.key) });
      else setProblem(t(refusal.key));
    }
  };

  return (
    <BookingDialog
      title={t('team.roleDialog.title', { email: member.email })}
      description={<p>{t('team.roleDialog.description')}</p>}
      {...(isSubmitting ? {} : { onClose })}
    >
      <form
        noValidate
        onSubmit={(event) => {
          void handleSubmit(submit)(event);
        }}
      >
        <label htmlFor="team-role">{t('team.invite.role')}</label>
        <select id="team-role" {...register('role')}>
          <option value="counselor">{t('team.roles.counselor')}</option>
          <option value="clinic_admin">{t('team.roles.clinic_admin')}</option>
        </select>
        {role === 'counselor' && (
          <>
            <label htmlFor="team-role-counselor">{t('team.invite.counselor')}</label>
            <select
              id="team-role-counselor"
              aria-invalid={counselorError !== null}
              aria-describedby={describedBy(counselorError !== null && 'team-role-counselor-error')}
              {...register('counselorId', { validate: (value) => value !== '' || t('team.refused.needsCounselor') })}
            >
              <option value="">{t('team.invite.chooseCounselor')}</option>
              {choices.map((counselor) => (
                <option key={counselor.counselorId} value={counselor.counselorId}>
                  {counselorName(counselor, locale)}
                </option>
              ))}
            </select>
            <FieldError id="team-role-counselor-error" issue={counselorError} />
          </>
        )}
        {problem !== null && <ErrorText>{problem}</ErrorText>}
        <div className="actions">
          <button type="submit" className="primary" disabled={isSubmitting}>
            {t('team.roleDialog.confirm')}
          </button>
          <button type="button" className="secondary" disabled={isSubmitting} onClick={onClose}>
            {t('team.dialog.keep')}
          </button>
          <BusyStatus busy={isSubmitting}>{t('team.dialog.saving')}</BusyStatus>
        </div>
      </form>
    </BookingDialog>
  );
}

export function AccessDialog({
  clinicId,
  member,
  onDone,
  onClose,
}: {
  clinicId: string;
  member: Member;
  onDone: (member: Member) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['staff', 'errors']);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const removing = member.removedAt === null;
  const words = removing ? 'team.removeDialog' : 'team.restoreDialog';

  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      onDone(await update(clinicId, member, { removed: removing }));
    } catch (error) {
      setProblem(t(refusalOf(error).key));
      setBusy(false);
    }
  };

  return (
    <BookingDialog
      title={t(`${words}.title`, { email: member.email })}
      description={<p>{t(`${words}.description`)}</p>}
      {...(busy ? {} : { onClose })}
    >
      {problem !== null && <ErrorText>{problem}</ErrorText>}
      <div className="actions">
        <button
          type="button"
          className={removing ? 'primary danger' : 'primary'}
          disabled={busy}
          onClick={() => {
            void confirm();
          }}
        >
          {t(`${words}.confirm`)}
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={onClose}>
          {t('team.dialog.keep')}
        </button>
        <BusyStatus busy={busy}>{t('team.dialog.saving')}</BusyStatus>
      </div>
    </BookingDialog>
  );
}
