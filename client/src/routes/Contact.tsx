/**
 * /contact (query `id` = the appointment, `name`, `email`: prefilled): the contact form.
 * Name, e-mail and message are required; a gap or a malformed address shows "Some of the
 * fields are incomplete." (docs/product.md "Validation rules and messages") above the button and each field's own problem.
 * `contact-send` is called once (no automatic retry: the message would be sent twice), with
 * the appointment of the query and, when signed in, the clinic of the person's appointment;
 * the server's refusal of fields is shown the same way. Sent: /contact-confirmation.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { EMAIL_INPUT, ErrorText, FieldError, FieldLabel } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import { definitionMessage } from '../intake';
import { callFunction, errorMessageKey, FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { selectAppointment, selectAuthUser, selectLocale } from '../store/selectors';
import { isValidEmail, normalizeEmail } from '../validation/email';
import { isRecord } from '../isRecord';

export interface ContactValues {
  name: string;
  email: string;
  message: string;
}

type ContactField = keyof ContactValues;
const FIELDS: readonly ContactField[] = ['name', 'email', 'message'];

/** The server's limits (contact-send). */
export const MAX_LENGTHS: Record<ContactField, number> = { name: 200, email: 254, message: 5000 };

/** Ids the server accepts (appointment and clinic): anything else in the query is left out. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The server's codes for a refused field (docs/protocol.md, contact-send and "Callables"). */
type RefusalCode = 'required' | 'email' | 'controlCharacters';
const REFUSAL_CODES: readonly string[] = ['required', 'email', 'controlCharacters'] satisfies RefusalCode[];

function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === 'string' && REFUSAL_CODES.includes(value);
}

/** `details.codes` of an INVALID_ARGUMENT refusal: field -> its code. */
function refusedFields(error: unknown): Partial<Record<ContactField, RefusalCode>> | null {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument' || !isRecord(error.details)) return null;
  const codes = error.details.codes;
  if (!isRecord(codes)) return null;
  const out: Partial<Record<ContactField, RefusalCode>> = {};
  for (const field of FIELDS) {
    const code = codes[field];
    if (isRefusalCode(code)) out[field] = code;
  }
  return Object.keys(out).length === 0 ? null : out;
}

export default function Contact() {
  const { t } = useTranslation(['screens', 'routes', 'errors']);
  const locale = useAppStore(selectLocale);
  const user = useAppStore(selectAuthUser);
  const appointment = useAppStore(selectAppointment);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const appointmentId = text(search.get('id'));
  const validAppointmentId = appointmentId !== null && ID_PATTERN.test(appointmentId) ? appointmentId : null;
  const [incomplete, setIncomplete] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactValues>({
    defaultValues: {
      name: search.get('name') ?? '',
      email: search.get('email') ?? user?.email ?? '',
      message: '',
    },
  });

  const onValid = async (values: ContactValues) => {
    setIncomplete(false);
    setSendError(null);
    const clinicId = user === null ? null : text(appointment?.data?.clinicId);
    try {
      await callFunction(
        'contact-send',
        {
          name: values.name.trim(),
          email: normalizeEmail(values.email),
          message: values.message.trim(),
          locale,
          ...(validAppointmentId === null ? {} : { appointmentId: validAppointmentId }),
          ...(clinicId !== null && ID_PATTERN.test(clinicId) ? { clinicId } : {}),
        },
        { maxAttempts: 1 },
      );
    } catch (error) {
      const refused = refusedFields(error);
      if (refused === null) {
        setSendError(t(errorMessageKey(error)));
        return;
      }
      let first = true;
      for (const field of FIELDS) {
        const code = refused[field];
        if (code === undefined) continue;
        setError(field, { type: code }, { shouldFocus: first });
        first = false;
      }
      // "Incomplete" is for a gap or a malformed address, not for characters that cannot be used.
      setIncomplete(Object.values(refused).some((code) => code !== 'controlCharacters'));
      return;
    }
    void navigate('/contact-confirmation');
  };

  const onInvalid = () => {
    setIncomplete(true);
    setSendError(null);
  };

  const issue = (field: ContactField): string | null => {
    const type = errors[field]?.type;
    if (type === undefined) return null;
    if (type === 'email') return t('errors:invalidEmail');
    return definitionMessage(type === 'controlCharacters' ? 'controlCharacters' : 'required', locale);
  };

  const required = (value: string) => value.trim() !== '' || 'required';

  const fieldProps = (field: ContactField) => {
    const invalid = errors[field] !== undefined;
    return {
      id: `contact-${field}`,
      'aria-required': true,
      'aria-invalid': invalid,
      'aria-describedby': invalid ? `contact-${field}-error` : undefined,
      maxLength: MAX_LENGTHS[field],
    };
  };

  return (
    <Screen title={t('routes:contact.title')} lead={t('routes:contact.description')}>
      <form
        className="card contact-form"
        noValidate
        onSubmit={(event) => {
          void handleSubmit(onValid, onInvalid)(event);
        }}
      >
        {validAppointmentId !== null && <p className="hint">{t('contact.aboutBooking', { id: validAppointmentId })}</p>}
        <p className="hint">{t('contact.requiredNote')}</p>
        <div className="field">
          <FieldLabel htmlFor="contact-name" label={t('contact.name')} required />
          <input type="text" autoComplete="name" {...fieldProps('name')} {...register('name', { validate: { required } })} />
          <FieldError id="contact-name-error" issue={issue('name')} />
        </div>
        <div className="field">
          <FieldLabel htmlFor="contact-email" label={t('contact.email')} required />
          <input
            {...EMAIL_INPUT}
            {...fieldProps('email')}
            {...register('email', {
              validate: { required, email: (value) => isValidEmail(value) || 'email' },
            })}
          />
          <FieldError id="contact-email-error" issue={issue('email')} />
        </div>
        <div className="field">
          <FieldLabel htmlFor="contact-message" label={t('contact.message')} required />
          <textarea rows={6} {...fieldProps('message')} {...register('message', { validate: { required } })} />
          <FieldError id="contact-message-error" issue={issue('message')} />
        </div>
        {incomplete && Object.keys(errors).length > 0 && <ErrorText>{t('contact.incomplete')}</ErrorText>}
        {sendError !== null && <ErrorText>{sendError}</ErrorText>}
        <div className="actions">
          <button type="submit" className="primary" disabled={isSubmitting}>
            {isSubmitting ? t('contact.sending') : t('contact.submit')}
          </button>
        </div>
      </form>
    </Screen>
  );
}
