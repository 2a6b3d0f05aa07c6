/**
 * `/staff/services` (clinic administrators): the clinic's services, offered or not, each with
 * an edit form (name, price, session and buffer, notice and horizon, pregnancy window,
 * cancellation policy, offered). Saved through `service-update` against the version read: when
 * someone else saved meanwhile, their version is shown in the form and nothing is lost
 * silently (docs/protocol.md, "Services"). A counselor is told the page is for administrators.
 */
import { useEffect, useState } from 'react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '../booking/format';
import { ErrorText, FieldError, describedBy } from '../components/FieldParts';
import type { Locale } from '../i18n/locale';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { currentOf, formOf, isShared, majorAmount, parseService, parseServices, refusedFields, updateOf, type FormField, type ServiceForm, type StaffService } from './services';
import { AdminScreen, useClinicRead } from './AdminScreen';
import './staff.css';
import './services.css';

function priceWords(service: StaffService, locale: Locale, free: string): string {
  return service.price === null ? free : formatPrice({ amount: majorAmount(service.price), currency: service.price.currency }, locale);
}

interface NumberFieldProps {
  id: string;
  field: FormField;
  label: string;
  unit?: string;
  issue: string | null;
  register: UseFormRegister<ServiceForm>;
  disabled?: boolean;
}

function TextField({ id, field, label, unit, issue, register, disabled = false, numeric = true }: NumberFieldProps & { numeric?: boolean }) {
  const errorId = `${id}-error`;
  const unitId = `${id}-unit`;
  return (
    <div className="services-field">
      <label htmlFor={id}>{label}</label>
      <div className="services-input">
        <input
          id={id}
          type="text"
          {...(numeric ? { inputMode: 'decimal' as const } : {})}
          disabled={disabled}
          aria-invalid={issue !== null}
          aria-describedby={describedBy(unit !== undefined && unitId, issue !== null && errorId)}
          {...register(field)}
        />
        {unit !== undefined && <span id={unitId}>{unit}</span>}
      </div>
      <FieldError id={errorId} issue={issue} />
    </div>
  );
}

type Failure = ReturnType<typeof errorMessageKey> | 'staff:services.shared';
type Outcome = { kind: 'saved' } | { kind: 'stale' } | { kind: 'failed'; key: Failure } | null;

function ServiceEditor({ clinicId, service, onSaved }: { clinicId: string; service: StaffService; onSaved: (service: StaffService) => void }) {
  const { t } = useTranslation(['staff', 'errors']);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [refused, setRefused] = useState<readonly FormField[]>([]);
  const { register, handleSubmit, control, reset, formState } = useForm<ServiceForm>({ defaultValues: formOf(service) });
  useEffect(() => {
    reset(formOf(service));
  }, [service, reset]);
  const paid = useWatch({ control, name: 'paid' });
  const pregnancy = useWatch({ control, name: 'pregnancy' });
  const id = (field: FormField) => `service-${service.id}-${field}`;
  const issue = (field: Exclude<FormField, 'paid' | 'pregnancy'>) => (refused.includes(field) ? t(`services.problem.${field}`) : null);

  const onValid = async (form: ServiceForm) => {
    setOutcome(null);
    const update = updateOf(clinicId, service, form);
    if ('unreadable' in update) {
      setRefused(update.unreadable);
      return;
    }
    try {
      const saved = parseService(await callFunction('service-update', update.input, { maxAttempts: 1 }));
      setRefused([]);
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
        setRefused(fields);
      } else if (current !== null) {
        setRefused([]);
        setOutcome({ kind: 'stale' });
        onSaved(current);
      } else {
        setOutcome({ kind: 'failed', key: isShared(error) ? 'staff:services.shared' : errorMessageKey(error) });
      }
    }
  };

  return (
    <form className="services-form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} aria-labelledby={`service-${service.id}-title`}>
      <fieldset>
        <legend>{t('services.form.names')}</legend>
        <TextField id={id('nameJa')} field="nameJa" label={t('services.form.nameJa')} issue={issue('nameJa')} numeric={false} register={register} />
        <TextField id={id('nameEn')} field="nameEn" label={t('services.form.nameEn')} issue={issue('nameEn')} numeric={false} register={register} />
      </fieldset>
      <fieldset>
        <legend>{t('services.form.price')}</legend>
        <div className="services-check">
          <input id={id('paid')} type="checkbox" {...register('paid')} />
          <label htmlFor={id('paid')}>{t('services.form.paid')}</label>
        </div>
        <div className="services-row">
          <TextField id={id('amount')} field="amount" label={t('services.form.amount')} issue={issue('amount')} disabled={!paid} register={register} />
          <TextField id={id('currency')} field="currency" label={t('services.form.currency')} issue={issue('currency')} disabled={!paid} numeric={false} register={register} />
        </div>
        <p className="hint">{t('services.form.priceHint')}</p>
      </fieldset>
      <fieldset>
        <legend>{t('services.form.times')}</legend>
        <div className="services-row">
          <TextField id={id('sessionMinutes')} field="sessionMinutes" label={t('services.form.sessionMinutes')} unit={t('services.unit.minutes')} issue={issue('sessionMinutes')} register={register} />
          <TextField id={id('bufferMinutes')} field="bufferMinutes" label={t('services.form.bufferMinutes')} unit={t('services.unit.minutes')} issue={issue('bufferMinutes')} register={register} />
          <TextField id={id('minNoticeHours')} field="minNoticeHours" label={t('services.form.minNoticeHours')} unit={t('services.unit.hours')} issue={issue('minNoticeHours')} register={register} />
          <TextField id={id('horizonDays')} field="horizonDays" label={t('services.form.horizonDays')} unit={t('services.unit.days')} issue={issue('horizonDays')} register={register} />
        </div>
      </fieldset>
      <fieldset>
        <legend>{t('services.form.pregnancyWindow')}</legend>
        <div className="services-check">
          <input id={id('pregnancy')} type="checkbox" {...register('pregnancy')} />
          <label htmlFor={id('pregnancy')}>{t('services.form.pregnancy')}</label>
        </div>
        <div className="services-row">
          <TextField id={id('minWeeks')} field="minWeeks" label={t('services.form.minWeeks')} unit={t('services.unit.weeks')} issue={issue('minWeeks')} disabled={!pregnancy} register={register} />
          <TextField id={id('maxWeeks')} field="maxWeeks" label={t('services.form.maxWeeks')} unit={t('services.unit.weeks')} issue={issue('maxWeeks')} disabled={!pregnancy} register={register} />
        </div>
      </fieldset>
      <fieldset>
        <legend>{t('services.form.cancellation')}</legend>
        <div className="services-row">
          <TextField id={id('freeUntilHours')} field="freeUntilHours" label={t('services.form.freeUntilHours')} unit={t('services.unit.hoursBefore')} issue={issue('freeUntilHours')} register={register} />
          <TextField id={id('lateRefundPercent')} field="lateRefundPercent" label={t('services.form.lateRefundPercent')} unit="%" issue={issue('lateRefundPercent')} register={register} />
        </div>
      </fieldset>
      <div className="services-check">
        <input id={id('active')} type="checkbox" {...register('active')} />
        <label htmlFor={id('active')}>{t('services.form.active')}</label>
      </div>
      <p className="hint">{t('services.form.activeHint')}</p>
      {refused.length > 0 && <ErrorText>{t('services.refused')}</ErrorText>}
      {outcome?.kind === 'stale' && <ErrorText>{t('services.stale')}</ErrorText>}
      {outcome?.kind === 'failed' && <ErrorText>{t(outcome.key)}</ErrorText>}
      <div className="services-actions">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          {t('services.save')}
        </button>
        <p role="status" className="hint">
          {outcome?.kind === 'saved' ? t('services.saved') : formState.isSubmitting ? t('services.saving') : ''}
        </p>
      </div>
    </form>
  );
}

function ServiceCard({ clinicId, service, onSaved }: { clinicId: string; service: StaffService; onSaved: (service: StaffService) => void }) {
  const { t } = useTranslation('staff');
  const locale = useAppStore(selectLocale);
  const [open, setOpen] = useState(false);
  const formId = `service-${service.id}-form`;
  return (
    <li className="services-card" data-active={service.active}>
      <div className="services-summary">
        <h2 id={`service-${service.id}-title`}>{service.name[locale]}</h2>
        <p className="services-facts">
          <span className={service.active ? 'services-badge' : 'services-badge services-inactive'}>{t(service.active ? 'services.active' : 'services.inactive')}</span>
          <span>{priceWords(service, locale, t('services.free'))}</span>
          <span>{t('services.session', { minutes: service.sessionMinutes, buffer: service.bufferMinutes })}</span>
        </p>
        <button type="button" className="secondary" aria-expanded={open} aria-controls={formId} onClick={() => {
            setOpen(!open);
          }}>
          {t(open ? 'services.close' : 'services.edit')}
        </button>
      </div>
      <div id={formId} hidden={!open}>
        {open && (
          <ServiceEditor clinicId={clinicId} service={service} onSaved={onSaved} />
        )}
      </div>
    </li>
  );
}

function ServiceList({ clinicId }: { clinicId: string }) {
  const { t } = useTranslation(['staff', 'errors']);
  const { value: services, setValue: setServices, failure } = useClinicRead('services-read', clinicId, parseServices);
  if (failure !== null) return <ErrorText>{t(failure)}</ErrorText>;
  if (services === null) {
    return (
      <p role="status" className="loading">
        {t('services.loading')}
      </p>
    );
  }
  const replace = (saved: StaffService) => {
    setServices((list) => (list ?? []).map((service) => (service.id === saved.id ? saved : service)));
  };
  return (
    <ul className="services-list">
      {services.map((service) => (
        <ServiceCard key={service.id} clinicId={clinicId} service={service} onSaved={replace} />
      ))}
    </ul>
  );
}

export default function ServicesScreen() {
  const { t } = useTranslation('staff');
  return (
    <AdminScreen title={t('services.title')} lead={t('services.lead')} adminsOnly={t('services.adminsOnly')}>
      {(clinicId) => <ServiceList key={clinicId} clinicId={clinicId} />}
    </AdminScreen>
  );
}
