/**
 * The generic questionnaire step: every field of a definition step, shown by its conditions,
 * in a react-hook-form form. Answers are saved as typed (liveSave.ts: the changed answers
 * without a problem, a moment after the last change, through the outbox: kept in memory and
 * sent when connected). A field's problem shows once the person has left it with an answer,
 * and every problem after a first "Save and continue". "Save and continue" checks the step with
 * the same rules as the server, sends one update with the changed paths, then goes on. A
 * refusal shows the server's problems at their fields. Answers changed in another tab appear
 * here unless the person has edited that field. Leaving the page (reload, closing the tab)
 * while something typed is not saved yet asks first (the browser's own question).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  changedData,
  deepEqual,
  formValuesFor,
  getPath,
  isFieldVisible,
  issueMessage,
  nextRoute,
  scopeOf,
  stepIssues,
  wireAnswersFor,
  withStepAnswers,
  fieldRefusal,
  type FieldDef,
  type FormItem,
  type FormValue,
  type FormValues,
  type StepDef,
} from './index';
import { errorMessageKey, FunctionsError, outbox } from '../realtime';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';
import { FieldControl, type FieldContext } from './IntakeField';
import { RepeaterField } from './RepeaterField';
import { ShownFields, type RenderControl } from './ShownFields';
import type { IntakeState } from './useIntake';
import { LIVE_SAVE_DELAY_MS, savableChanges } from './liveSave';

type Ready = Extract<IntakeState, { status: 'ready' }>;

/** The server's word on one answer (the provider code: `providerCode-check`): a note to show, or a refusal. */
export type RemoteVerdict = { note: string } | { code: string; message?: string };

/**
 * A check of one answer by the server, made once the answer is typed and has no problem of its
 * own: its note is shown under the form, its refusal at the field (as a refused save's).
 * Keep the object stable (its identity starts a new check).
 */
export interface RemoteCheck {
  path: string;
  run: (value: string, document: Ready['document']) => Promise<RemoteVerdict>;
}

export interface StepFormProps {
  step: StepDef;
  intake: Ready;
  /** Form values to start with where nothing is stored (the provider code of `?id=`). */
  prefill?: Record<string, FormValue>;
  remoteCheck?: RemoteCheck;
}

/** A problem reported by the server, shown while the answer is still the one sent. */
interface Refused {
  code: string;
  message: string | undefined;
  sent: unknown;
}

/** Focuses the first field marked invalid, in page order. */
function focusFirstInvalid(form: HTMLFormElement | null): void {
  const invalid = form?.querySelector('[data-invalid]');
  const target = invalid?.matches('input, select, textarea')
    ? invalid
    : invalid?.querySelector<HTMLElement>('input, select, textarea, button');
  if (target instanceof HTMLElement) target.focus();
}

/** The note of the remote check of the current answer (null: none, or not checked yet); a refusal goes to `refuse`. */
function useRemoteCheck(check: RemoteCheck | undefined, value: unknown, document: Ready['document'], refuse: (sent: string, verdict: { code: string; message?: string }) => void): string | null {
  const [verdict, setVerdict] = useState<{ value: string; note: string } | null>(null);
  const documentRef = useRef(document);
  const refuseRef = useRef(refuse);
  useLayoutEffect(() => {
    documentRef.current = document;
    refuseRef.current = refuse;
  });
  const typed = typeof value === 'string' && value !== '' ? value : null;
  useEffect(() => {
    if (check === undefined || typed === null) return;
    let live = true;
    check.run(typed, documentRef.current).then(
      (result) => {
        if (!live) return;
        if ('note' in result) setVerdict({ value: typed, note: result.note });
        else refuseRef.current(typed, result);
      },
      () => undefined, // unreachable now: the save's own check answers later
    );
    return () => {
      live = false;
    };
  }, [check, typed]);
  return verdict !== null && verdict.value === typed ? verdict.note : null;
}

export function StepForm({ step, intake, prefill, remoteCheck }: StepFormProps) {
  const { t } = useTranslation(['intake', 'errors']);
  const locale = useAppStore(selectLocale);
  const navigate = useNavigate();
  const { category, today, document, appointmentPath } = intake;
  const context: FieldContext = { locale, category, today };
  const formRef = useRef<HTMLFormElement>(null);
  const mounted = useRef(true);
  const documentRef = useRef(document);
  /** The form values of the document as last seen: a field still equal to it is not edited. */
  const baseRef = useRef<FormValues>(formValuesFor(step, document));

  const { control, handleSubmit, getValues, setValue, formState } = useForm<FormValues>({
    defaultValues: formValuesFor(step, document, prefill),
  });
  const values = useWatch({ control }) as FormValues;
  const [checked, setChecked] = useState(false);
  const [refused, setRefused] = useState<Record<string, Refused>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const liveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** What the live saves had committed, by path: a typed value the server stored otherwise (trimmed) is saved. */
  const committedRef = useRef<Record<string, unknown>>({});
  const lastValuesRef = useRef<FormValues>(values);
  const uid = useAppStore((state) => state.session.user?.uid ?? null);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Pushes of the document (another tab, this tab's own save): follow them where not edited.
  useEffect(() => {
    documentRef.current = document;
    const next = formValuesFor(step, document);
    const current = getValues();
    for (const field of step.fields) {
      const mine = getPath(current, field.path);
      const theirs = getPath(next, field.path);
      if (deepEqual(mine, getPath(baseRef.current, field.path)) && !deepEqual(mine, theirs)) {
        setValue(field.path, theirs, { shouldDirty: false });
      }
    }
    baseRef.current = next;
  }, [document, step, getValues, setValue]);

  useLayoutEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current);
  }, [focusRequest]);

  const wire = wireAnswersFor(step, values, category, document);
  // What this step's conditions read: its answers as typed, other steps' as saved.
  const answered = withStepAnswers(step, wire, document);
  const allIssues = stepIssues(step, answered, context);
  const touched = formState.touchedFields;
  // Before a first "Save and continue": a field's problem once it was left with an answer.
  const liveIssues = checked
    ? allIssues
    : Object.fromEntries(
        Object.entries(allIssues).filter(([path, issue]) => issue !== 'required' && getPath(touched, path) !== undefined),
      );

  const checkedPath = remoteCheck?.path;
  const remoteNote = useRemoteCheck(
    remoteCheck,
    checkedPath === undefined || checkedPath in allIssues ? null : getPath(wire, checkedPath),
    document,
    (sent, verdict) => {
      if (checkedPath === undefined) return;
      setRefused((shown) => ({ ...shown, [checkedPath]: { code: verdict.code, message: verdict.message, sent } }));
    },
  );

  const isCommitted = (path: string, value: unknown) => path in committedRef.current && deepEqual(committedRef.current[path], value);

  /** Sends the step's changed answers that have no problem (a live save); refusals show at "Save and continue". */
  const saveTyped = () => {
    clearTimeout(liveTimer.current);
    liveTimer.current = undefined;
    const answers = wireAnswersFor(step, getValues(), category, documentRef.current);
    const issues = stepIssues(step, withStepAnswers(step, answers, documentRef.current), context);
    const data = savableChanges(step, answers, documentRef.current, issues);
    if (Object.keys(data).length === 0) return;
    outbox.send(appointmentPath, data).then(
      () => {
        Object.assign(committedRef.current, data);
      },
      () => undefined,
    );
  };
  /** Something typed here is not stored on the server yet (waiting, in the outbox, or refused by a problem). */
  const unsaved = () => {
    if (liveTimer.current !== undefined || outbox.pending() > 0) return true;
    const data = changedData(step, wireAnswersFor(step, getValues(), category, documentRef.current), documentRef.current);
    return Object.entries(data).some(([path, value]) => !isCommitted(path, value));
  };
  // The timers and page listeners below call the latest of these.
  const saveTypedRef = useRef(saveTyped);
  const unsavedRef = useRef(unsaved);
  useLayoutEffect(() => {
    saveTypedRef.current = saveTyped;
    unsavedRef.current = unsaved;
  });

  // Each change by the person: saved a moment after the last one.
  useEffect(() => {
    if (deepEqual(lastValuesRef.current, values)) return;
    lastValuesRef.current = values;
    clearTimeout(liveTimer.current);
    liveTimer.current = setTimeout(() => {
      saveTypedRef.current();
    }, LIVE_SAVE_DELAY_MS);
  }, [values]);

  // Leaving the step inside the app saves what is waiting, unless the person signed out.
  useEffect(
    () => () => {
      if (liveTimer.current === undefined) return;
      if ((useAppStore.getState().session.user?.uid ?? null) === uid) saveTypedRef.current();
      else clearTimeout(liveTimer.current);
    },
    [uid],
  );

  // Reloading or closing the page while something typed is not saved: the browser asks first.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!unsavedRef.current()) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('beforeunload', warn);
    };
  }, []);

  const issueAt = (path: string, field: FieldDef): string | null => {
    const server = refused[path];
    if (server && deepEqual(getPath(wire, path) ?? null, server.sent)) {
      return issueMessage(server.code, field, locale, today, server.message);
    }
    const key = liveIssues[path];
    return key === undefined ? null : issueMessage(key, field, locale, today);
  };

  const save = async (formValues: FormValues) => {
    clearTimeout(liveTimer.current);
    liveTimer.current = undefined;
    setFormError(null);
    const answers = wireAnswersFor(step, formValues, category, documentRef.current);
    const issues = stepIssues(step, withStepAnswers(step, answers, documentRef.current), context);
    setChecked(true);
    if (Object.keys(issues).length > 0) {
      setFocusRequest((n) => n + 1);
      return;
    }
    const next = nextRoute(step.id, intake.scope);
    const data = changedData(step, answers, documentRef.current);
    if (Object.keys(data).length > 0) {
      try {
        await outbox.send(appointmentPath, data);
      } catch (error) {
        if (!mounted.current) return;
        const refusal = fieldRefusal(error);
        if (refusal) {
          const byPath: Record<string, Refused> = {};
          for (const path of new Set([...Object.keys(refusal.codes), ...Object.keys(refusal.messages)])) {
            byPath[path] = { code: refusal.codes[path] ?? '', message: refusal.messages[path], sent: getPath(answers, path) ?? null };
          }
          setRefused(byPath);
          const consent = refusal.codes.consent;
          const shown = scopeOf(withStepAnswers(step, answers, documentRef.current), category);
          const placed = (path: string) =>
            step.fields.some(
              (field) =>
                isFieldVisible(field, step.fields, shown) &&
                (field.path === path || (field.type === 'repeater' && path.startsWith(`${field.path}.`))),
            );
          const unplaced = Object.keys(byPath).filter((path) => path !== 'consent' && !placed(path));
          if (consent !== undefined) setFormError(issueMessage(consent, null, locale, today));
          else if (unplaced.length > 0) setFormError(t('errors:invalid-argument'));
          setFocusRequest((n) => n + 1);
        } else if (!(error instanceof FunctionsError && error.code === 'cancelled')) {
          setFormError(t(errorMessageKey(error)));
        }
        return;
      }
    }
    if (mounted.current) void navigate(next);
  };

  // A field's answer lives in the form (react-hook-form); a repeater's items are one answer.
  const renderControl: RenderControl = (field, required, other) => (
    <Controller
      control={control}
      name={field.path}
      render={({ field: controlled }) =>
        field.type === 'repeater' ? (
          <RepeaterField
            field={field}
            value={Array.isArray(controlled.value) ? (controlled.value as FormItem[]) : []}
            onChange={controlled.onChange}
            required={required}
            issueAt={(path) => {
              const child = field.fields?.find((candidate) => path.endsWith(`.${candidate.path}`));
              return issueAt(path, path === field.path ? field : (child ?? field));
            }}
            context={context}
          />
        ) : (
          <>
            <FieldControl
              field={field}
              path={field.path}
              value={controlled.value}
              onChange={controlled.onChange}
              onBlur={controlled.onBlur}
              required={required}
              issue={issueAt(field.path, field)}
              context={context}
            >
              {other}
            </FieldControl>
            {field.path === checkedPath && (
              <p role="status" className="remote-note">
                {remoteNote}
              </p>
            )}
          </>
        )
      }
    />
  );

  return (
    <form
      ref={formRef}
      className="step-form"
      noValidate
      onSubmit={(event) => {
        void handleSubmit(save)(event);
      }}
    >
      <ShownFields fields={step.fields} scope={scopeOf(answered, category)} render={renderControl} markPaths />
      {formError !== null && (
        <p role="alert" className="error-text form-error">
          {formError}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          {t('intake:save.submit')}
        </button>
      </div>
    </form>
  );
}
