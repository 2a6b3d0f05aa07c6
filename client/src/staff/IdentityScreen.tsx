/**
 * `/staff/identity` (clinic administrators): the clinic's own sign-in service (an OpenID
 * Connect provider: Microsoft Entra ID, Google Workspace, Keycloak ...), through which its
 * staff then sign in instead of by e-mail link (docs/product.md, "The clinic's sign-in
 * service"). Shows the redirect URI to register there, with a copy button; sets the issuer,
 * client id, secret (write-only: never shown, an empty field keeps the stored one), the
 * button's name, the `acr` values that mean several factors, and whether it is on, through
 * `identityProvider-update` against the version read: an edit someone else overtook is
 * answered with the current values. A provider set by the server's setting is shown
 * read-only. A counselor is told the page is for administrators.
 */
import { useEffect, useId, useState } from 'react';
import { useForm, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorText, FieldError, describedBy } from '../components/FieldParts';
import { callFunction, errorMessageKey } from '../realtime';
import { AdminScreen, useClinicRead } from './AdminScreen';
import { currentOf, formOf, isSetBySetting, parseSetting, refusedFields, updateOf, type FormField, type IdentityForm, type IdentitySetting, type Problem } from './identityProvider';
import './staff.css';
import './services.css';
import './identity.css';

function RedirectUri({ uri }: { uri: string }) {
  const { t } = useTranslation('staff');
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(uri).then(
      () => {
        setCopied('yes');
      },
      () => {
        setCopied('no');
      },
    );
  };
  return (
    <section className="identity-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('identity.redirect.title')}</h2>
      <p className="hint" id={`${id}-hint`}>
        {t('identity.redirect.hint')}
      </p>
      <div className="identity-copy">
        <label htmlFor={id} className="visually-hidden">
          {t('identity.redirect.label')}
        </label>
        <input
          id={id}
          type="text"
          readOnly
          value={uri}
          spellCheck={false}
          lang="en"
          aria-describedby={`${id}-hint`}
          onFocus={(event) => {
            event.currentTarget.select();
          }}
        />
        <button type="button" className="secondary" onClick={copy}>
          {t('identity.redirect.copy')}
        </button>
      </div>
      <p role="status" className="hint">
        {copied === null ? '' : t(copied === 'yes' ? 'identity.redirect.copied' : 'identity.redirect.copyFailed')}
      </p>
    </section>
  );
}

function stateWords(setting: IdentitySetting): 'identity.state.none' | 'identity.state.on' | 'identity.state.off' {
  if (setting.provider === null) return 'identity.state.none';
  return setting.provider.enabled ? 'identity.state.on' : 'identity.state.off';
}

function FromSetting({ setting }: { setting: IdentitySetting }) {
  const { t } = useTranslation('staff');
  const facts = setting.provider;
  if (facts === null) return null;
  return (
    <section className="identity-card" aria-labelledby="identity-setting-title">
      <h2 id="identity-setting-title">{t('identity.setting.title')}</h2>
      <p>{t('identity.setting.explain')}</p>
      <dl className="identity-facts">
        <dt>{t('identity.form.name')}</dt>
        <dd>{facts.name}</dd>
        <dt>{t('identity.form.issuer')}</dt>
        <dd lang="en">{facts.issuer}</dd>
        <dt>{t('identity.form.clientId')}</dt>
        <dd lang="en">{facts.clientId}</dd>
        <dt>{t('identity.form.clientSecret')}</dt>
        <dd>{t(facts.secretSet ? 'identity.secret.set' : 'identity.secret.none')}</dd>
        <dt>{t('identity.form.mfaAcr')}</dt>
        <dd lang="en">{facts.mfaAcr.length === 0 ? '—' : facts.mfaAcr.join(', ')}</dd>
      </dl>
    </section>
  );
}

interface FieldProps {
  field: Exclude<FormField, 'mfaAcr'>;
  label: string;
  hint?: string;
  issue: string | null;
  register: UseFormRegister<IdentityForm>;
  type?: 'text' | 'url' | 'password';
  autoComplete?: string;
}

function TextField({ field, label, hint, issue, register, type = 'text', autoComplete = 'off' }: FieldProps) {
  const id = `identity-${field}`;
  return (
    <div className="services-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} autoComplete={autoComplete} spellCheck={false} aria-invalid={issue !== null} aria-describedby={describedBy(hint !== undefined && `${id}-hint`, issue !== null && `${id}-error`)} {...register(field)} />
      {hint !== undefined && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} issue={issue} />
    </div>
  );
}

type Failure = ReturnType<typeof errorMessageKey> | 'staff:identity.setBySetting';
type Outcome = { kind: 'saved' } | { kind: 'stale' } | { kind: 'refused' } | { kind: 'failed'; key: Failure } | null;

function ProviderForm({ clinicId, setting, onSaved }: { clinicId: string; setting: IdentitySetting; onSaved: (setting: IdentitySetting) => void }) {
  const { t } = useTranslation(['staff', 'errors']);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [problems, setProblems] = useState<Partial<Record<FormField, Problem | null>>>({});
  const { register, handleSubmit, reset, formState } = useForm<IdentityForm>({ defaultValues: formOf(setting) });
  useEffect(() => {
    reset(formOf(setting));
  }, [setting, reset]);
  const issue = (field: FormField) => {
    if (!(field in problems)) return null;
    const code = problems[field];
    const general = t('identity.problem.general');
    return code === null || code === undefined ? general : t(`identity.problem.${code}`, { defaultValue: general });
  };
  const secretSet = setting.provider?.secretSet === true;

  const onValid = async (form: IdentityForm) => {
    setOutcome(null);
    try {
      const saved = parseSetting(await callFunction('identityProvider-update', updateOf(clinicId, setting, form), { maxAttempts: 1 }));
      setProblems({});
      if (saved === null) {
        setOutcome({ kind: 'failed', key: 'errors:unknown' });
        return;
      }
      setOutcome({ kind: 'saved' });
      onSaved(saved);
    } catch (error) {
      const fields = refusedFields(error);
      const current = currentOf(error);
      if (fields !== null) {
        setProblems(fields);
        setOutcome({ kind: 'refused' });
      } else if (current !== null) {
        setProblems({});
        setOutcome({ kind: 'stale' });
        onSaved(current);
      } else {
        setOutcome({ kind: 'failed', key: isSetBySetting(error) ? 'staff:identity.setBySetting' : errorMessageKey(error) });
      }
    }
  };

  return (
    <form className="identity-card services-form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} aria-labelledby="identity-form-title">
      <h2 id="identity-form-title">{t('identity.form.title')}</h2>
      <p className="services-facts">
        <span className="services-badge">{t(stateWords(setting))}</span>
      </p>
      <TextField field="name" label={t('identity.form.name')} hint={t('identity.form.nameHint')} issue={issue('name')} register={register} />
      <TextField field="issuer" type="url" label={t('identity.form.issuer')} hint={t('identity.form.issuerHint')} issue={issue('issuer')} register={register} />
      <TextField field="clientId" label={t('identity.form.clientId')} issue={issue('clientId')} register={register} />
      <TextField
        field="clientSecret"
        type="password"
        autoComplete="new-password"
        label={t('identity.form.clientSecret')}
        hint={t(secretSet ? 'identity.form.secretKeptHint' : 'identity.form.secretNoneHint')}
        issue={issue('clientSecret')}
        register={register}
      />
      <div className="services-field">
        <label htmlFor="identity-mfaAcr">{t('identity.form.mfaAcr')}</label>
        <textarea id="identity-mfaAcr" rows={3} spellCheck={false} aria-invalid={issue('mfaAcr') !== null} aria-describedby={describedBy('identity-mfaAcr-hint', issue('mfaAcr') !== null && 'identity-mfaAcr-error')} {...register('mfaAcr')} />
        <p id="identity-mfaAcr-hint" className="hint">
          {t('identity.form.mfaAcrHint')}
        </p>
        <FieldError id="identity-mfaAcr-error" issue={issue('mfaAcr')} />
      </div>
      <div className="services-check">
        <input id="identity-enabled" type="checkbox" aria-describedby="identity-enabled-hint" {...register('enabled')} />
        <label htmlFor="identity-enabled">{t('identity.form.enabled')}</label>
      </div>
      <p id="identity-enabled-hint" className="hint">
        {t('identity.form.enabledHint')}
      </p>
      {outcome?.kind === 'refused' && <ErrorText>{t('identity.refused')}</ErrorText>}
      {outcome?.kind === 'stale' && <ErrorText>{t('identity.stale')}</ErrorText>}
      {outcome?.kind === 'failed' && <ErrorText>{t(outcome.key)}</ErrorText>}
      <div className="services-actions">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          {t('identity.save')}
        </button>
        <p role="status" className="hint">
          {outcome?.kind === 'saved' ? t('identity.saved') : formState.isSubmitting ? t('identity.saving') : ''}
        </p>
      </div>
    </form>
  );
}

function IdentityPanel({ clinicId }: { clinicId: string }) {
  const { t } = useTranslation(['staff', 'errors']);
  const { value: setting, setValue, failure } = useClinicRead('identityProvider-read', clinicId, parseSetting);
  if (failure !== null) return <ErrorText>{t(failure)}</ErrorText>;
  if (setting === null) {
    return (
      <p role="status" className="loading">
        {t('identity.loading')}
      </p>
    );
  }
  return (
    <>
      <RedirectUri uri={setting.redirectUri} />
      {setting.source === 'settings' ? <FromSetting setting={setting} /> : <ProviderForm clinicId={clinicId} setting={setting} onSaved={setValue} />}
    </>
  );
}

export default function IdentityScreen() {
  const { t } = useTranslation('staff');
  return (
    <AdminScreen title={t('identity.title')} lead={t('identity.lead')} adminsOnly={t('identity.adminsOnly')}>
      {(clinicId) => <IdentityPanel key={clinicId} clinicId={clinicId} />}
    </AdminScreen>
  );
}
