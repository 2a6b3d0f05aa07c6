/**
 * The required reason of a cancellation, by the person (CancelDialog) or by the clinic
 * (staff/appointment/StaffCancelDialog): one form rule and one field, so both refuse an empty
 * or over-long reason alike and the server's limit is written once.
 */
import { useId } from 'react';
import { useForm, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';
import { FieldError } from '../components/FieldParts';

/** The server keeps at most this much of a reason. */
export const MAX_REASON_LENGTH = 1000;

export interface ReasonForm {
  form: UseFormReturn<{ reason: string }>;
  /** The field's problem in words, or null. */
  error: string | null;
  registration: UseFormRegisterReturn<'reason'>;
}

/** The form of one reason; `words` says its two problems in the reader's language. */
export function useReasonForm(words: { required: string; tooLong: string }): ReasonForm {
  const form = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const problem = form.formState.errors.reason;
  const error = problem ? (problem.type === 'maxLength' ? words.tooLong : words.required) : null;
  const registration = form.register('reason', {
    validate: (value) => value.trim() !== '',
    maxLength: MAX_REASON_LENGTH,
  });
  return { form, error, registration };
}

export function ReasonField({ label, reason }: { label: string; reason: ReasonForm }) {
  const reasonId = useId();
  const errorId = `${reasonId}-error`;
  return (
    <div className="field" data-invalid={reason.error !== null || undefined}>
      <div className="label-row">
        <label htmlFor={reasonId}>{label}</label>
        <span className="required-mark" aria-hidden="true">
          *
        </span>
      </div>
      <textarea
        id={reasonId}
        rows={4}
        aria-required="true"
        aria-invalid={reason.error !== null}
        aria-describedby={reason.error === null ? undefined : errorId}
        {...reason.registration}
      />
      <FieldError id={errorId} issue={reason.error} />
    </div>
  );
}
