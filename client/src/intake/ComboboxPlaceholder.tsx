/**
 * What stands in for ComboboxField while its code loads: the same label, hint, box and
 * problem, so nothing moves when the real one arrives.
 */
import { useTranslation } from 'react-i18next';
import { FieldError, RequiredMark } from '../components/FieldParts';
import './combobox.css';

export function ComboboxPlaceholder({ label, required, errorId, issue }: { label: string; required: boolean; errorId: string; issue: string | null }) {
  const { t } = useTranslation('intake');
  return (
    <div className="field combobox-field" aria-busy="true">
      <div className="combobox">
        <div className="label-row">
          <span>{label}</span>
          {required && <RequiredMark />}
        </div>
        <p className="hint">{t('combobox.hint')}</p>
        <div className="combobox-input combobox-placeholder" />
      </div>
      <span className="hint">{t('combobox.noneChosen')}</span>
      <FieldError id={errorId} issue={issue} />
    </div>
  );
}
