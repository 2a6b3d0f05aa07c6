/**
 * The waitlist on the calendar step (docs/product.md "Waitlist"): when no time suits, the person
 * asks for a range of days (and a counselor, or anyone) with `waitlist-join`; while waiting they
 * see their range and may leave (`waitlist-leave`). A freed time held for them arrives live on
 * their appointment document: `WaitlistOfferNotice` says so, with the time, until when it is
 * held and the way on to the review.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorText } from '../components/FieldParts';
import { BusyStatus } from '../components/Loading';
import { formatDate } from '../i18n/format';
import type { Locale } from '../i18n/locale';
import { REVIEW_ROUTE } from '../intake';
import { callFunction, errorMessageKey, FunctionsError } from '../realtime';
import { isRecord } from '../isRecord';
import { ANY_COUNSELOR } from './slots';
import { useWhen } from './useWhen';
import { defaultRange, type Waitlist, type WaitlistOffer } from './waitlist';

/** The fields `waitlist-join` may refuse by name (`details.fields`), each with its own words. */
const FIELDS = ['from', 'to', 'counselorId'] as const;
type Field = (typeof FIELDS)[number];

interface JoinValues {
  from: string;
  to: string;
  counselorId: string;
}

/** The field names of an INVALID_ARGUMENT refusal that this form shows beside its fields. */
function refusedFields(error: unknown): Field[] {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument') return [];
  const details: unknown = error.details;
  const fields = isRecord(details) && isRecord(details.fields) ? details.fields : {};
  return FIELDS.filter((field) => field in fields);
}

export interface WaitlistPanelProps {
  appointmentId: string;
  waitlist: Waitlist | null;
  /** The clinic's today and the last day of the booking horizon (YYYY-MM-DD). */
  today: string;
  lastDay: string;
  /** The day chosen in the calendar, if any: the range starts there. */
  chosenDate: string;
  counselors: readonly string[];
  nameOf: (counselorId: string) => string;
  locale: Locale;
  /** Nothing is free: the way to the waitlist is shown plainly, not as a quiet link. */
  prominent: boolean;
}

export function WaitlistPanel(props: WaitlistPanelProps) {
  const { appointmentId, waitlist, locale, nameOf } = props;
  const { t } = useTranslation(['booking', 'errors']);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  if (waitlist?.status === 'offered') return null; // the offer notice speaks (or the person chose another time)
  if (waitlist?.status === 'waiting') {
    const leave = async () => {
      setBusy(true);
      setFailure(null);
      try {
        await callFunction('waitlist-leave', { appointmentId });
      } catch (error) {
        setFailure(t(errorMessageKey(error)));
      } finally {
        setBusy(false);
      }
    };
    return (
      <div className="booking-waitlist" role="status">
        <p>
          {t('booking:waitlist.waiting', {
            from: formatDate(waitlist.from, locale),
            to: formatDate(waitlist.to, locale),
            counselor: waitlist.counselorId === null ? t('booking:counselor.any') : nameOf(waitlist.counselorId),
          })}
        </p>
        <p className="hint">{t('booking:waitlist.waitingHint')}</p>
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => void leave()}>
            {t('booking:waitlist.leave')}
          </button>
          <BusyStatus busy={busy}>{t('booking:waitlist.leaving')}</BusyStatus>
        </div>
        {failure !== null && <ErrorText>{failure}</ErrorText>}
      </div>
    );
  }

  const lapsed = waitlist?.status === 'lapsed' ? <p className="hint booking-waitlist-lapsed">{t('booking:waitlist.lapsed')}</p> : null;
  const openForm = () => {
    setOpen(true);
  };
  if (!open) {
    return (
      <div className="booking-waitlist-entry">
        {lapsed}
        {props.prominent ? (
          <p>
            {t('booking:waitlist.nothingFree')}{' '}
            <button type="button" onClick={openForm}>
              {t('booking:waitlist.join')}
            </button>
          </p>
        ) : (
          <p>
            <button type="button" className="link-button" onClick={openForm}>
              {t('booking:waitlist.noneWork')}
            </button>
          </p>
        )}
      </div>
    );
  }
  return (
    <JoinForm
      {...props}
      onClose={() => {
        setOpen(false);
      }}
    />
  );
}

function JoinForm({
  appointmentId,
  today,
  lastDay,
  chosenDate,
  counselors,
  nameOf,
  onClose,
}: WaitlistPanelProps & { onClose: () => void }) {
  const { t } = useTranslation(['booking', 'errors']);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<JoinValues>({
    defaultValues: { ...defaultRange(today, lastDay, chosenDate), counselorId: ANY_COUNSELOR },
  });
  const { register, handleSubmit, setError, formState } = form;

  const onValid = async (values: JoinValues) => {
    setFailure(null);
    try {
      await callFunction('waitlist-join', {
        appointmentId,
        from: values.from,
        to: values.to,
        ...(values.counselorId === ANY_COUNSELOR ? {} : { counselorId: values.counselorId }),
      });
      onClose(); // the document now shows the person waiting
    } catch (error) {
      const fields = refusedFields(error);
      for (const field of fields) setError(field, { type: 'server', message: t(`booking:waitlist.invalid.${field}`) });
      if (fields.length === 0) setFailure(t(errorMessageKey(error)));
    }
  };

  const submit = () => {
    void handleSubmit(onValid)();
  };
  const issue = (field: Field) => formState.errors[field]?.message ?? null;
  return (
    // A group, not a <form>: it sits inside the calendar step's own form (no nested forms);
    // Enter in its fields joins, and never holds the calendar's time.
    <div
      className="booking-waitlist-form"
      role="group"
      aria-labelledby="booking-waitlist-heading"
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          submit();
        }
      }}
    >
      <h2 id="booking-waitlist-heading">{t('booking:waitlist.heading')}</h2>
      <p className="hint">{t('booking:waitlist.lead')}</p>
      <div className="booking-waitlist-days">
        {(['from', 'to'] as const).map((field) => (
          <div className="field" key={field}>
            <label htmlFor={`booking-waitlist-${field}`}>{t(`booking:waitlist.${field}`)}</label>
            <input
              id={`booking-waitlist-${field}`}
              type="date"
              min={today}
              max={lastDay}
              required
              aria-invalid={issue(field) !== null}
              aria-describedby={issue(field) !== null ? `booking-waitlist-${field}-error` : undefined}
              {...register(field, { required: t(`booking:waitlist.invalid.${field}`) })}
            />
            {issue(field) !== null && <ErrorText id={`booking-waitlist-${field}-error`}>{issue(field)}</ErrorText>}
          </div>
        ))}
      </div>
      {counselors.length > 1 && (
        <div className="field">
          <label htmlFor="booking-waitlist-counselor">{t('booking:waitlist.counselor')}</label>
          <select id="booking-waitlist-counselor" {...register('counselorId')}>
            {[ANY_COUNSELOR, ...counselors].map((id) => (
              <option key={id} value={id}>
                {id === ANY_COUNSELOR ? t('booking:counselor.any') : nameOf(id)}
              </option>
            ))}
          </select>
          {issue('counselorId') !== null && <ErrorText>{issue('counselorId')}</ErrorText>}
        </div>
      )}
      {failure !== null && <ErrorText>{failure}</ErrorText>}
      <div className="actions">
        <button type="button" className="primary" disabled={formState.isSubmitting} onClick={submit}>
          {t('booking:waitlist.submit')}
        </button>
        <button type="button" onClick={onClose} disabled={formState.isSubmitting}>
          {t('booking:waitlist.close')}
        </button>
        <BusyStatus busy={formState.isSubmitting}>{t('booking:waitlist.joining')}</BusyStatus>
      </div>
    </div>
  );
}

/** A freed time held for the person: prominent, with the way on to the review. */
export function WaitlistOfferNotice({ offer, clinicZone, locale }: { offer: WaitlistOffer; clinicZone: string; locale: Locale }) {
  const { t } = useTranslation('booking');
  const whenText = useWhen(locale);
  const navigate = useNavigate();
  return (
    <div className="booking-waitlist-offer" role="alert">
      <p>
        <strong>{t('waitlist.offered', { until: offer.untilTime })}</strong>
      </p>
      <p>{whenText(offer.date, offer.time, clinicZone)}</p>
      <div className="actions">
        <button type="button" className="primary" onClick={() => void navigate(REVIEW_ROUTE)}>
          {t('waitlist.toReview')}
        </button>
      </div>
    </div>
  );
}
