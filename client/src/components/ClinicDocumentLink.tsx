/**
 * A link to one of the clinic's documents (docs/product.md "Clinic documents"): its download
 * page in the person's language, shown only once the document's metadata answers (a document
 * the clinic retired or never uploaded is not linked). `useBookingClinicId` is the clinic of
 * the person's booking, when the app knows it.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { downloadsPath, fileUrl, loadMetadata } from '../routes/Downloads';
import { useAppStore } from '../store';
import { selectClinic, selectLocale } from '../store/selectors';

const LABELS = { 'consent-form': 'consentForm', brochure: 'brochure' } as const;
export type LinkedDocument = keyof typeof LABELS;

const CLINIC_PATH = 'clinics/';

export function useBookingClinicId(): string | null {
  const clinic = useAppStore(selectClinic);
  return clinic?.exists && clinic.path.startsWith(CLINIC_PATH) ? clinic.path.slice(CLINIC_PATH.length) : null;
}

export function ClinicDocumentLink({ clinicId, document }: { clinicId: string | null; document: LinkedDocument }) {
  const { t } = useTranslation('screens');
  const locale = useAppStore(selectLocale);
  const url = clinicId === null ? null : fileUrl(clinicId, document, locale);
  const [available, setAvailable] = useState<string | null>(null);
  useEffect(() => {
    if (url === null) return;
    const controller = new AbortController();
    loadMetadata(url, controller.signal).then(
      (result) => {
        if (typeof result !== 'string') setAvailable(url);
      },
      () => undefined, // no link: the page works without it
    );
    return () => {
      controller.abort();
    };
  }, [url]);
  if (clinicId === null || available !== url) return null;
  return (
    <p className="clinic-document-link">
      <Link to={downloadsPath(clinicId, document, locale)}>{t(`clinicDocuments.${LABELS[document]}`)}</Link>
    </p>
  );
}
