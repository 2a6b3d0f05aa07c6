import { useId, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FAQ_RECEIVING_EMAIL } from './faqAnchors';
import { isMobileCarrierAddress } from '../validation/carrierDomains';
import { emailFieldError, normalizeEmail } from '../validation/email';
import { describedBy, EMAIL_INPUT, ErrorText, FieldError } from '../components/FieldParts';

interface EmailFormValues {
  email: string;
}

export interface EmailFormProps {
  /** The submit button's text (its accessible name). */
  submitLabel: string;
  /** Receives the trimmed, valid address. */
  onSubmit: (email: string) => Promise<void> | void;
  defaultEmail?: string;
  /** Warn about mobile-carrier addresses (docs/product.md "Messages people see") with a link to the FAQ. */
  carrierNotice?: boolean;
  /** A translated error of the last submission (server refusal), shown above the button. */
  error?: string | null;
  busy?: boolean;
  children?: ReactNode;
}

/**
 * One e-mail address field with the login rule (docs/product.md "Validation rules and messages": an empty field asks
 * for an address, anything else not an address is "Invalid email address."), validated on submit and again on every
 * change after that.
 */
export function EmailForm({ submitLabel, onSubmit, defaultEmail = '', carrierNotice = false, error = null, busy = false, children }: EmailFormProps) {
  const { t } = useTranslation(['common', 'routes', 'errors']);
  const id = useId();
  const fieldId = `${id}-email`;
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<EmailFormValues>({ defaultValues: { email: defaultEmail } });
  const email = useWatch({ control, name: 'email' });
  const invalid = errors.email !== undefined;
  const showCarrierNotice = carrierNotice && isMobileCarrierAddress(email);
  const errorId = `${fieldId}-error`;
  const carrierId = `${fieldId}-carrier`;

  return (
    <form
      className="card"
      noValidate
      onSubmit={(event) => {
        void handleSubmit(async (values) => {
          await onSubmit(normalizeEmail(values.email));
        })(event);
      }}
    >
      {children}
      <label htmlFor={fieldId}>{t('emailField.label')}</label>
      <input
        id={fieldId}
        {...EMAIL_INPUT}
        aria-invalid={invalid}
        aria-describedby={describedBy(invalid && errorId, showCarrierNotice && carrierId)}
        {...register('email', { validate: (value) => emailFieldError(value) ?? true })}
      />
      <FieldError
        id={errorId}
        issue={invalid ? t(errors.email?.message === 'emailRequired' ? 'errors:emailRequired' : 'errors:invalidEmail') : null}
      />
      {showCarrierNotice && (
        <p id={carrierId} className="notice">
          {t('errors:mobileCarrierNotice')} <Link to={`/faq#${FAQ_RECEIVING_EMAIL}`}>{t('routes:login.carrierFaq')}</Link>
        </p>
      )}
      {error && <ErrorText>{error}</ErrorText>}
      <button type="submit" className="primary" disabled={busy || isSubmitting}>
        {submitLabel}
      </button>
    </form>
  );
}
