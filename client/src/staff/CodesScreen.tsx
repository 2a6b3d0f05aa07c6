/**
 * `/staff/codes` (clinic administrators): the clinic's provider codes, the referring
 * institutions the questionnaire's first step names (docs/protocol.md, "Provider codes"): list,
 * add, rename, stop or resume accepting one, each through `providerCode-update`. A counselor
 * is told the page is for administrators.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorText, FieldError, describedBy } from '../components/FieldParts';
import { isRecord } from '../isRecord';
import { callFunction, errorMessageKey } from '../realtime';
import { FunctionsError } from '../realtime/errors';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { AdminScreen, useClinicRead } from './AdminScreen';
import './staff.css';
import './services.css';

export interface ProviderCode {
  code: string;
  name: string;
  active: boolean;
  updated: string;
}

function parseCode(value: unknown): ProviderCode | null {
  if (!isRecord(value)) return null;
  const { code, name, active, updated } = value;
  return typeof code === 'string' && typeof name === 'string' && typeof active === 'boolean' && typeof updated === 'string' ? { code, name, active, updated } : null;
}

export function parseCodes(data: unknown): ProviderCode[] | null {
  if (!isRecord(data) || !Array.isArray(data.codes)) return null;
  const codes = data.codes.map(parseCode);
  return codes.every((code): code is ProviderCode => code !== null) ? codes : null;
}

type CodeField = 'code' | 'name';
type Failure = ReturnType<typeof errorMessageKey> | 'staff:codes.exists';

/** The fields an INVALID_ARGUMENT refusal names. */
function refused(error: unknown): CodeField[] {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument' || !isRecord(error.details) || !isRecord(error.details.fields)) return [];
  return (['code', 'name'] as const).filter((field) => isRecord(error.details) && isRecord(error.details.fields) && field in error.details.fields);
}

async function save(clinicId: string, code: string, name: string, active: boolean): Promise<ProviderCode | null> {
  return parseCode(await callFunction('providerCode-update', { clinicId, code, name, active }, { maxAttempts: 1 }));
}

interface AddValues {
  code: string;
  name: string;
}

function AddCode({ clinicId, known, onSaved }: { clinicId: string; known: readonly string[]; onSaved: (code: ProviderCode) => void }) {
  const { t } = useTranslation(['staff', 'errors']);
  const [problems, setProblems] = useState<CodeField[]>([]);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saved, setSaved] = useState(false);
  const { register, handleSubmit, reset, formState } = useForm<AddValues>({ defaultValues: { code: '', name: '' } });
  const onValid = async ({ code, name }: AddValues) => {
    setFailure(null);
    setSaved(false);
    const typed = code.trim();
    if (known.includes(typed)) {
      setProblems([]);
      setFailure('staff:codes.exists');
      return;
    }
    try {
      const row = await save(clinicId, typed, name, true);
      setProblems([]);
      if (row === null) {
        setFailure('errors:unknown');
        return;
      }
      onSaved(row);
      setSaved(true);
      reset();
    } catch (error) {
      const fields = refused(error);
      setProblems(fields);
      if (fields.length === 0) setFailure(errorMessageKey(error));
    }
  };
  const issue = (field: CodeField) => (problems.includes(field) ? t(`codes.problem.${field}`) : null);
  return (
    <form className="codes-card" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} aria-labelledby="codes-add">
      <h2 id="codes-add">{t('codes.add')}</h2>
      <div className="codes-form">
        <div className="services-field">
          <label htmlFor="codes-new-code">{t('codes.code')}</label>
          <input
            id="codes-new-code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={4}
            aria-invalid={issue('code') !== null}
            aria-describedby={describedBy('codes-new-code-hint', issue('code') !== null && 'codes-new-code-error')}
            {...register('code')}
          />
          <p id="codes-new-code-hint" className="hint">
            {t('codes.codeHint')}
          </p>
          <FieldError id="codes-new-code-error" issue={issue('code')} />
        </div>
        <div className="services-field">
          <label htmlFor="codes-new-name">{t('codes.name')}</label>
          <input id="codes-new-name" type="text" aria-invalid={issue('name') !== null} aria-describedby={describedBy(issue('name') !== null && 'codes-new-name-error')} {...register('name')} />
          <FieldError id="codes-new-name-error" issue={issue('name')} />
        </div>
      </div>
      {failure !== null && <ErrorText>{t(failure)}</ErrorText>}
      <div className="services-actions">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          {t('codes.add')}
        </button>
        <p role="status" className="hint">
          {saved ? t('codes.saved') : ''}
        </p>
      </div>
    </form>
  );
}

function CodeRow({ clinicId, row, onSaved }: { clinicId: string; row: ProviderCode; onSaved: (code: ProviderCode) => void }) {
  const { t } = useTranslation(['staff', 'errors']);
  const locale = useAppStore(selectLocale);
  const [name, setName] = useState(row.name);
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = `codes-${row.code}-name`;
  const change = async (nextName: string, active: boolean) => {
    setBusy(true);
    setProblem(null);
    setFailure(null);
    try {
      const saved = await save(clinicId, row.code, nextName, active);
      if (saved === null) setFailure('errors:unknown');
      else onSaved(saved);
    } catch (error) {
      if (refused(error).includes('name')) setProblem(t('codes.problem.name'));
      else setFailure(errorMessageKey(error));
    } finally {
      setBusy(false);
    }
  };
  const changed = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(row.updated));
  return (
    <li className="codes-card" data-active={row.active}>
      <p className="services-facts">
        <span className="codes-code" lang="en">
          {row.code}
        </span>
        <span className={row.active ? 'services-badge' : 'services-badge services-inactive'}>{t(row.active ? 'codes.activeState' : 'codes.inactiveState')}</span>
        <span className="hint">{t('codes.updated', { when: changed })}</span>
      </p>
      <form
        className="codes-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void change(name, row.active);
        }}
      >
        <div className="services-field">
          <label htmlFor={inputId}>
            {t('codes.name')}
            <span className="visually-hidden"> ({row.code})</span>
          </label>
          <input
            id={inputId}
            type="text"
            value={name}
            aria-invalid={problem !== null}
            aria-describedby={describedBy(problem !== null && `${inputId}-error`)}
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
          <FieldError id={`${inputId}-error`} issue={problem} />
        </div>
        <div className="services-actions">
          <button type="submit" className="secondary" disabled={busy}>
            {t('codes.rename')}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => {
              void change(row.name, !row.active);
            }}>
            {t(row.active ? 'codes.deactivate' : 'codes.activate')}
          </button>
        </div>
      </form>
      {failure !== null && <ErrorText>{t(failure)}</ErrorText>}
    </li>
  );
}

function CodeList({ clinicId }: { clinicId: string }) {
  const { t } = useTranslation(['staff', 'errors']);
  const { value: codes, setValue: setCodes, failure } = useClinicRead('providerCodes-read', clinicId, parseCodes);
  if (failure !== null) return <ErrorText>{t(failure)}</ErrorText>;
  if (codes === null) {
    return (
      <p role="status" className="loading">
        {t('codes.loading')}
      </p>
    );
  }
  const put = (saved: ProviderCode) => {
    setCodes((list) => {
      const others = (list ?? []).filter((row) => row.code !== saved.code);
      return [...others, saved].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    });
  };
  return (
    <>
      <AddCode clinicId={clinicId} known={codes.map((row) => row.code)} onSaved={put} />
      <h2>{t('codes.caption')}</h2>
      {codes.length === 0 ? (
        <p>{t('codes.empty')}</p>
      ) : (
        <ul className="codes-list" aria-label={t('codes.caption')}>
          {codes.map((row) => (
            <CodeRow key={`${row.code}-${row.updated}`} clinicId={clinicId} row={row} onSaved={put} />
          ))}
        </ul>
      )}
    </>
  );
}

export default function CodesScreen() {
  const { t } = useTranslation('staff');
  return (
    <AdminScreen title={t('codes.title')} lead={t('codes.lead')} adminsOnly={t('codes.adminsOnly')}>
      {(clinicId) => <CodeList key={clinicId} clinicId={clinicId} />}
    </AdminScreen>
  );
}
