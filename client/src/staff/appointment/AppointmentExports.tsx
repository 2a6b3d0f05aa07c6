/** Downloads of the FHIR answers and questionnaire (exports.ts), and printing the page. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/FieldParts';
import type { Locale } from '../../i18n/locale';
import { errorMessageKey } from '../../realtime';
import { exportFileName, fetchExport, saveFile, type FhirExport } from './exports';
import type { StaffAppointment } from './read';

export function AppointmentExports({ appointment, locale }: { appointment: StaffAppointment; locale: Locale }) {
  const { t } = useTranslation(['staff', 'errors']);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const download = async (kind: FhirExport) => {
    const id = kind === 'Questionnaire' ? appointment.serviceId : appointment.id;
    setBusy(true);
    setProblem(null);
    try {
      saveFile(await fetchExport(kind, id, locale), exportFileName(kind, id));
    } catch (error) {
      setProblem(`${t('staff:appointment.exportFailed')} ${t(errorMessageKey(error))}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="staff-panel no-print" aria-labelledby="appointment-exports">
      <h2 id="appointment-exports">{t('staff:appointment.exportTitle')}</h2>
      <div className="actions">
        <button type="button" className="secondary" disabled={busy} onClick={() => void download('QuestionnaireResponse')}>
          {t('staff:appointment.exportAnswers')}
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => void download('Questionnaire')}>
          {t('staff:appointment.exportQuestionnaire')}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            window.print();
          }}
        >
          {t('staff:appointment.print')}
        </button>
      </div>
      {problem !== null && <ErrorText>{problem}</ErrorText>}
    </section>
  );
}
