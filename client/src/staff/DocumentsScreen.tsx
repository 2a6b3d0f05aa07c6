/**
 * `/staff/documents` (clinic administrators): the clinic's documents per document and language
 * (title, type, size, updated, published or retired), read through `documents-read`; a form
 * to upload or replace one, with its progress; retiring one after a confirmation. A counselor
 * is told plainly that the page is for clinic administrators (the server refuses them anyway).
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STAFF_HOME, staffRole } from '../auth/roles';
import { ErrorText } from '../components/FieldParts';
import { Screen } from '../components/ScreenPlaceholder';
import { callFunction, errorMessageKey } from '../realtime';
import { useAppStore } from '../store';
import { selectAuthUser } from '../store/selectors';
import { DocumentForm, type FormTarget } from './DocumentForm';
import { DocumentsTable } from './DocumentsTable';
import { parseDocuments, type ClinicDocument } from './documents';
import { RetireDocumentDialog } from './RetireDocumentDialog';
import { useDocumentWords } from './documentWords';
import './staff.css';
import './documents.css';

type Listing = { status: 'loading' } | { status: 'ready'; documents: ClinicDocument[] } | { status: 'failed'; error: unknown };

function useDocuments(clinicId: string) {
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    callFunction('documents-read', { clinicId }).then(
      (data) => {
        if (!live) return;
        const documents = parseDocuments(data);
        setListing(documents === null ? { status: 'failed', error: new Error('malformed reply') } : { status: 'ready', documents });
      },
      (error: unknown) => {
        if (live) setListing({ status: 'failed', error });
      },
    );
    return () => {
      live = false;
    };
  }, [clinicId, attempt]);
  const reload = useCallback(() => {
    setAttempt((n) => n + 1);
  }, []);
  return { listing, reload };
}

function ClinicDocuments({ clinicId }: { clinicId: string }) {
  const { t } = useTranslation(['staff', 'errors']);
  const words = useDocumentWords();
  const { listing, reload } = useDocuments(clinicId);
  const [target, setTarget] = useState<FormTarget | null>(null);
  const [retiring, setRetiring] = useState<ClinicDocument | null>(null);
  const [notice, setNotice] = useState('');

  return (
    <div className="staff-documents">
      <div aria-live="polite" aria-atomic="true" className="visually-hidden" data-testid="documents-announcer">
        {notice}
      </div>
      <section aria-labelledby="documents-list-heading">
        <h2 id="documents-list-heading">{t('documents.list.heading')}</h2>
        {listing.status === 'loading' && (
          <p role="status" className="loading">
            {t('documents.list.loading')}
          </p>
        )}
        {listing.status === 'failed' && <ErrorText>{t(errorMessageKey(listing.error))}</ErrorText>}
        {listing.status === 'ready' && (
          <DocumentsTable
            clinicId={clinicId}
            documents={listing.documents}
            onReplace={(document) => {
              setTarget({ docId: document.docId, locale: document.locale, title: document.title ?? '', key: Date.now() });
            }}
            onRetire={setRetiring}
          />
        )}
      </section>
      <DocumentForm
        key={target?.key ?? 0}
        clinicId={clinicId}
        target={target}
        onUploaded={(document) => {
          setNotice(
            t('documents.form.done', {
              title: document.title ?? document.name,
              document: words.document(document.docId),
              language: words.language(document.locale),
              generation: document.generation,
            }),
          );
          reload();
        }}
      />
      {retiring !== null && (
        <RetireDocumentDialog
          clinicId={clinicId}
          document={retiring}
          onClose={() => {
            setRetiring(null);
          }}
          onRetired={(document) => {
            setRetiring(null);
            setNotice(t('documents.retire.done', { document: words.document(document.docId), language: words.language(document.locale) }));
            reload();
          }}
        />
      )}
    </div>
  );
}

export default function DocumentsScreen() {
  const { t } = useTranslation('staff');
  const user = useAppStore(selectAuthUser);
  const clinicId = user?.clinicId ?? null;
  if (staffRole(user?.role) !== 'clinic_admin') {
    return (
      <Screen title={t('documents.adminsOnlyTitle')} lead={t('documents.adminsOnly')}>
        <p>
          <Link to={STAFF_HOME}>{t('documents.toBoard')}</Link>
        </p>
      </Screen>
    );
  }
  return (
    <Screen title={t('documents.title')} lead={t('documents.lead')}>
      {clinicId === null ? <ErrorText>{t('board.noClinic')}</ErrorText> : <ClinicDocuments key={clinicId} clinicId={clinicId} />}
    </Screen>
  );
}
