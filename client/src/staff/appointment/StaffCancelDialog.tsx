/**
 * "Cancel for the clinic": a confirmation with the reason (required; the person reads it in
 * their mail), then `appointment-cancel` with `byClinic: true` (docs/protocol.md "Staff
 * reading and acting"), sent once: staff decide whether to try again.
 */
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BookingDialog } from '../../booking/BookingDialog';
import { MAX_REASON_LENGTH } from '../../booking/CancelDialog';
import { ErrorText } from '../../components/FieldParts';
import { BusyStatus } from '../../components/Loading';

export function StaffCancelDialog({
  onConfirm,
  onClose,
  problem,
}: {
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
  /** The refusal of the last attempt, in words. */
  problem: string | null;
}) {
  const { t } = useTranslation('staff');
  const reasonId = useId();
  const errorId = `${reasonId}-error`;
  const [busy, setBusy] = useState(false);
  const { register, handleSubmit, formState } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const reasonError = formState.errors.reason
    ? formState.errors.reason.type === 'maxLength'
      ? t('staffCancel.reasonTooLong', { max: MAX_REASON_LENGTH })
      : t('staffCancel.reasonRequired')
    : null;

  const onValid = async ({ reason }: { reason: string }) => {
    setBusy(true);
    try {
      await onConfirm(reason.trim());
    } finally {
      setBusy(false);
    }
  };

  return (
    <BookingDialog title={t('staffCancel.title')} description={<p>{t('staffCancel.description')}</p>} {...(busy ? {} : { onClose })}>
      <form
        className="cancel-form"
        noValidate
        onSubmit={(event) => {
          void handleSubmit(onValid)(event);
        }}
      >
        <div className="field" data-invalid={reasonError !== null || undefined}>
          <div className="label-row">
            <label htmlFor={reasonId}>{t('staffCancel.reason')}</label>
            <span className="required-mark" aria-hidden="true">
              *
            </span>
          </div>
          <textarea
            id={reasonId}
            rows={4}
            aria-required="true"
            aria-invalid={reasonError !== null}
            aria-describedby={reasonError === null ? undefined : errorId}
            {...register('reason', { validate: (value) => value.trim() !== '', maxLength: MAX_REASON_LENGTH })}
          />
          {reasonError !== null && <ErrorText id={errorId}>{reasonError}</ErrorText>}
        </div>
        {problem !== null && <ErrorText>{problem}</ErrorText>}
        <div className="actions">
          <button type="submit" className="primary danger" disabled={busy}>
            {t('staffCancel.confirm')}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={onClose}>
            {t('staffCancel.keep')}
          </button>
          <BusyStatus busy={busy}>{t('staffCancel.cancelling')}</BusyStatus>
        </div>
      </form>
    </BookingDialog>
  );
}
