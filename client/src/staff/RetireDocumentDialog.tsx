/**
 * "Retire": a confirmation naming the document and language and what retiring does, then the
 * retirement, sent once (the administrator decides whether to try again). The product's
 * dialog (booking/BookingDialog.tsx, on components/DialogFrame.tsx).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BookingDialog } from '../booking/BookingDialog';
import { ErrorText } from '../components/FieldParts';
import { BusyStatus } from '../components/Loading';
import { errorMessageKey } from '../realtime';
import { retireDocument, type ClinicDocument } from './documents';
import { useDocumentWords } from './documentWords';

interface RetireDocumentDialogProps {
  clinicId: string;
  document: ClinicDocument;
  onClose: () => void;
  onRetired: (document: ClinicDocument) => void;
}

export function RetireDocumentDialog({ clinicId, document, onClose, onRetired }: RetireDocumentDialogProps) {
  const { t } = useTranslation(['staff', 'errors']);
  const words = useDocumentWords();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const names = { document: words.document(document.docId), language: words.language(document.locale) };

  const confirm = () => {
    setBusy(true);
    setFailure(null);
    retireDocument(clinicId, document.docId, document.locale).then(
      (retired) => {
        onRetired(retired);
      },
      (error: unknown) => {
        setBusy(false);
        setFailure(error);
      },
    );
  };

  return (
    <BookingDialog title={t('documents.retire.title')} description={<p>{t('documents.retire.description', names)}</p>} {...(busy ? {} : { onClose })}>
      {failure !== null && <ErrorText>{t(errorMessageKey(failure))}</ErrorText>}
      <div className="actions">
        <button type="button" className="primary danger" disabled={busy} onClick={confirm}>
          {t('documents.retire.confirm')}
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={onClose}>
          {t('documents.retire.keep')}
        </button>
        <BusyStatus busy={busy}>{t('documents.retire.retiring')}</BusyStatus>
      </div>
    </BookingDialog>
  );
}
