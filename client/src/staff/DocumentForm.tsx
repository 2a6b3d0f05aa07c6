/**
 * Upload or replace a clinic document: which document (its id) and language, its title and
 * the file, with the upload's progress. Checked here first for what needs no server (a file
 * chosen, not empty, under the limit; a title; the id's form); the server checks again and
 * reads the content, and its refusal is shown beside the field it names, in the person's
 * language. "Replace" in the list opens it anew (keyed by the press) with the document,
 * language and title filled in, the file input focused.
 */
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../components/FieldParts';
import { maxDocumentBytes } from '../contract';
import { errorMessageKey } from '../realtime';
import {
  ACCEPTED_FILES,
  DOC_ID_PATTERN,
  DOCUMENT_LOCALES,
  fileProblem,
  KNOWN_DOCUMENTS,
  MAX_TITLE_LENGTH,
  refusalOf,
  titleProblem,
  uploadDocument,
  type ClinicDocument,
  type FormField,
} from './documents';
import { useDocumentWords } from './documentWords';

/** What "Replace" puts in the form (`key` tells one press from the next). */
export interface FormTarget {
  docId: string;
  locale: string;
  title: string;
  key: number;
}

type Problems = Partial<Record<FormField, string>>;

interface DocumentFormProps {
  clinicId: string;
  /** What "Replace" filled in (null: an empty form). */
  target: FormTarget | null;
  onUploaded: (document: ClinicDocument) => void;
}

export function DocumentForm({ clinicId, target, onUploaded }: DocumentFormProps) {
  const { t } = useTranslation(['staff', 'errors']);
  const words = useDocumentWords();
  const [docId, setDocId] = useState<string>(target?.docId ?? KNOWN_DOCUMENTS[0]);
  const [locale, setLocale] = useState<string>(target?.locale ?? DOCUMENT_LOCALES[0]);
  const [title, setTitle] = useState(target?.title ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const max = words.size(maxDocumentBytes);

  useEffect(() => {
    if (target === null) return;
    fileInput.current?.scrollIntoView({ block: 'center' });
    fileInput.current?.focus();
  }, [target]);

  const refusalText = (field: FormField, code: string) =>
    t(`staff:documents.errors.${field}.${code}`, { max: field === 'title' ? MAX_TITLE_LENGTH : max, defaultValue: t(`staff:documents.errors.${field}.invalid`) });

  const check = (): Problems => {
    const found: Problems = {};
    if (!DOC_ID_PATTERN.test(docId.trim())) found.docId = refusalText('docId', 'invalid');
    const titleIssue = titleProblem(title);
    if (titleIssue !== null) found.title = refusalText('title', titleIssue);
    const fileIssue = fileProblem(file);
    if (fileIssue !== null) found.file = refusalText('file', fileIssue);
    return found;
  };

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (progress !== null) return;
    const found = check();
    setProblems(found);
    setFailure(null);
    if (Object.keys(found).length > 0 || file === null) return;
    setProgress(0);
    uploadDocument({ clinicId, docId: docId.trim(), locale, title: title.trim(), file, onProgress: setProgress }).then(
      (document) => {
        setProgress(null);
        setFile(null);
        if (fileInput.current) fileInput.current.value = '';
        onUploaded(document);
      },
      (error: unknown) => {
        setProgress(null);
        const refusal = refusalOf(error);
        if (refusal === null) setFailure(error);
        else setProblems({ [refusal.field]: refusalText(refusal.field, refusal.code) });
      },
    );
  };

  const described = (field: FormField, hint?: string) =>
    [hint, problems[field] === undefined ? undefined : `document-${field}-error`].filter(Boolean).join(' ') || undefined;
  const problem = (field: FormField) =>
    problems[field] === undefined ? null : <ErrorText id={`document-${field}-error`}>{problems[field]}</ErrorText>;
  const busy = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);

  return (
    <form className="staff-document-form" noValidate onSubmit={submit} aria-labelledby="document-form-heading">
      <h2 id="document-form-heading">{t('documents.form.heading')}</h2>
      <p className="hint">{t('documents.form.note')}</p>
      <div className="staff-document-fields">
        <div className="staff-filter">
          <label htmlFor="document-docId">{t('documents.form.docId')}</label>
          <input
            id="document-docId"
            type="text"
            list="document-known-ids"
            value={docId}
            maxLength={64}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            aria-invalid={problems.docId !== undefined}
            aria-describedby={described('docId', 'document-docId-hint')}
            onChange={(event) => {
              setDocId(event.target.value);
            }}
          />
          <datalist id="document-known-ids">
            {KNOWN_DOCUMENTS.map((known) => (
              <option key={known} value={known}>
                {words.document(known)}
              </option>
            ))}
          </datalist>
          <p id="document-docId-hint" className="hint">
            {t('documents.form.docIdHint')}
          </p>
          {problem('docId')}
        </div>
        <div className="staff-filter">
          <label htmlFor="document-locale">{t('documents.form.locale')}</label>
          <select
            id="document-locale"
            value={locale}
            aria-invalid={problems.locale !== undefined}
            aria-describedby={described('locale')}
            onChange={(event) => {
              setLocale(event.target.value);
            }}
          >
            {DOCUMENT_LOCALES.map((code) => (
              <option key={code} value={code}>
                {words.language(code)}
              </option>
            ))}
          </select>
          {problem('locale')}
        </div>
        <div className="staff-filter staff-document-wide">
          <label htmlFor="document-title">{t('documents.form.title')}</label>
          <input
            id="document-title"
            type="text"
            value={title}
            maxLength={MAX_TITLE_LENGTH * 2}
            aria-invalid={problems.title !== undefined}
            aria-describedby={described('title', 'document-title-hint')}
            onChange={(event) => {
              setTitle(event.target.value);
            }}
          />
          <p id="document-title-hint" className="hint">
            {t('documents.form.titleHint', { max: MAX_TITLE_LENGTH })}
          </p>
          {problem('title')}
        </div>
        <div className="staff-filter staff-document-wide">
          <label htmlFor="document-file">{t('documents.form.file')}</label>
          <input
            ref={fileInput}
            id="document-file"
            type="file"
            accept={ACCEPTED_FILES}
            aria-invalid={problems.file !== undefined}
            aria-describedby={described('file', 'document-file-hint')}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
            }}
          />
          <p id="document-file-hint" className="hint">
            {t('documents.form.fileHint', { max })}
          </p>
          {problem('file')}
        </div>
      </div>
      {failure !== null && <ErrorText>{t(errorMessageKey(failure))}</ErrorText>}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('documents.form.submit')}
        </button>
        {busy && (
          <span className="staff-document-progress" role="status">
            <progress max={100} value={percent} aria-label={t('documents.form.progress')} />{' '}
            {t('documents.form.uploading', { percent })}
          </span>
        )}
      </div>
    </form>
  );
}
