/**
 * "Cancel for the clinic": a confirmation with the reason (required; the person reads it in
 * their mail), then `appointment-cancel` with `byClinic: true` (docs/protocol.md "Staff
 * reading and acting"), sent once: staff decide whether to try again.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BookingDialog } from '../../booking/BookingDialog';
import { MAX_REASON_LENGTH, ReasonField, useReasonForm } from '../../booking/ReasonField';
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
  const [busy, setBusy] = useState(false);
  const reason = useReasonForm({
    required: t('staffCancel.reasonRequired'),
    tooLong: t('staffCancel.reasonTooLong', { max: MAX_REASON_LENGTH }),
  });

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
          void reason.form.handleSubmit(onValid)(event);
        }}
      >
        <ReasonField label={t('staffCancel.reason')} reason={reason} />
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
