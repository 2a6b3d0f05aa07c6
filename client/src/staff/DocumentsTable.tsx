/**
 * The clinic's documents, one row per document and language: what the download page shows of
 * it, whether it is published, and the ways to replace or retire it. On a phone the table
 * scrolls inside its own region (as the audit log's does).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { downloadsPath } from '../routes/Downloads';
import type { ClinicDocument } from './documents';
import { useDocumentWords } from './documentWords';
import { StaffTable } from './StaffTable';

interface DocumentsTableProps {
  clinicId: string;
  documents: readonly ClinicDocument[];
  onReplace: (document: ClinicDocument) => void;
  onRetire: (document: ClinicDocument) => void;
}

export function DocumentsTable({ clinicId, documents, onReplace, onRetire }: DocumentsTableProps) {
  const { t } = useTranslation('staff');
  const words = useDocumentWords();
  if (documents.length === 0) return <p>{t('documents.list.empty')}</p>;
  return (
    <StaffTable
      labelId="documents-caption"
      caption={t('documents.list.caption')}
      className="staff-documents-table"
      columns={[
        t('documents.list.column.document'),
        t('documents.list.column.language'),
        t('documents.list.column.file'),
        t('documents.list.column.type'),
        t('documents.list.column.size'),
        t('documents.list.column.updated'),
        t('documents.list.column.state'),
        t('documents.list.column.actions'),
      ]}
    >
      {documents.map((document) => {
        const names = { document: words.document(document.docId), language: words.language(document.locale) };
        const retired = document.retiredAt !== null;
        return (
          <tr key={`${document.docId}/${document.locale}`} data-doc={`${document.docId}/${document.locale}`} data-retired={retired || undefined}>
            <th scope="row">
              {retired ? (
                names.document
              ) : (
                <Link
                  to={downloadsPath(clinicId, document.docId, document.locale)}
                  aria-label={t('documents.list.view', names)}
                >
                  {names.document}
                </Link>
              )}
              <span className="staff-booking-detail">{document.docId}</span>
            </th>
            <td>{names.language}</td>
            <td>
              {document.title ?? document.name}
              <span className="staff-booking-detail">
                {document.title === null ? '' : `${document.name} · `}
                {t('documents.list.version', { generation: document.generation })}
              </span>
            </td>
            <td>{words.type(document.contentType)}</td>
            <td className="staff-documents-number">{words.size(document.size)}</td>
            <td>{document.updated === null ? '—' : <time dateTime={document.updated}>{words.updated(document.updated)}</time>}</td>
            <td>
              <span className={retired ? 'staff-document-state retired' : 'staff-document-state'}>
                {t(retired ? 'documents.list.state.retired' : 'documents.list.state.served')}
              </span>
            </td>
            <td>
              <div className="staff-documents-actions">
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('documents.list.replaceLabel', names)}
                  onClick={() => {
                    onReplace(document);
                  }}
                >
                  {t('documents.list.replace')}
                </button>
                {!retired && (
                  <button
                    type="button"
                    className="secondary danger"
                    aria-label={t('documents.list.retireLabel', names)}
                    onClick={() => {
                      onRetire(document);
                    }}
                  >
                    {t('documents.list.retire')}
                  </button>
                )}
              </div>
            </td>
          </tr>
        );
      })}
    </StaffTable>
  );
}
