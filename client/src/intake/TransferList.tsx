/**
 * Two lists, the conditions available and those chosen, with buttons that move the selected
 * entries (Enter in a list does the same). Each entry shows its classification code and
 * whether it is external. Native multi-select lists: keyboard and screen readers know them.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';
import { OTHER, type OptionDef, type OptionValue } from './index';
import { FieldError, RequiredMark } from '../components/FieldParts';

export interface TransferListProps {
  id: string;
  label: string;
  required: boolean;
  options: OptionDef[];
  value: OptionValue[];
  onChange: (value: OptionValue[]) => void;
  locale: Locale;
  invalid: boolean;
  errorId: string;
  issue: string | null;
  children?: ReactNode;
}

const selectedValues = (select: HTMLSelectElement) => Array.from(select.selectedOptions, (option) => option.value);

export function TransferList({ id, label, required, options, value, onChange, locale, invalid, errorId, issue, children }: TransferListProps) {
  const { t } = useTranslation('intake');
  const [pickAvailable, setPickAvailable] = useState<string[]>([]);
  const [pickChosen, setPickChosen] = useState<string[]>([]);
  const key = (code: OptionValue) => String(code);
  const chosen = options.filter((option) => value.includes(option.value));
  const available = options.filter((option) => !value.includes(option.value));
  const hintId = `${id}-hint`;

  const text = (option: OptionDef) => {
    const name = option.label[locale];
    if (option.value === OTHER) return name;
    const code = String(option.value);
    return `${name} (${option.external === true ? t('transfer.externalCode', { code }) : code})`;
  };
  /** The new answer, kept in the order of the option list. */
  const answer = (codes: Set<string>) => options.filter((option) => codes.has(key(option.value))).map((option) => option.value);

  const add = () => {
    if (pickAvailable.length === 0) return;
    onChange(answer(new Set([...value.map(key), ...pickAvailable])));
    setPickAvailable([]);
  };
  const remove = () => {
    if (pickChosen.length === 0) return;
    const removing = new Set(pickChosen);
    onChange(answer(new Set(value.map(key).filter((code) => !removing.has(code)))));
    setPickChosen([]);
  };

  return (
    <fieldset className="field transfer-list" data-invalid={invalid || undefined} aria-describedby={[hintId, invalid ? errorId : ''].join(' ').trim()}>
      <legend>
        {label}
        {required && <RequiredMark />}
      </legend>
      <p id={hintId} className="hint">
        {t('transfer.hint')}
      </p>
      <div className="transfer-columns">
        <div className="transfer-column">
          <label htmlFor={`${id}-available`}>{t('transfer.available', { label })}</label>
          <select
            id={`${id}-available`}
            multiple
            size={Math.min(8, Math.max(4, options.length))}
            value={pickAvailable}
            onChange={(event) => {
              setPickAvailable(selectedValues(event.target));
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          >
            {available.map((option) => (
              <option key={key(option.value)} value={key(option.value)}>
                {text(option)}
              </option>
            ))}
          </select>
        </div>
        <div className="transfer-buttons">
          <button type="button" className="secondary" onClick={add} disabled={pickAvailable.length === 0}>
            {t('transfer.add')}
          </button>
          <button type="button" className="secondary" onClick={remove} disabled={pickChosen.length === 0}>
            {t('transfer.remove')}
          </button>
        </div>
        <div className="transfer-column">
          <label htmlFor={`${id}-chosen`}>{t('transfer.chosen', { label })}</label>
          <select
            id={`${id}-chosen`}
            multiple
            size={Math.min(8, Math.max(4, options.length))}
            value={pickChosen}
            onChange={(event) => {
              setPickChosen(selectedValues(event.target));
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === 'Delete') {
                event.preventDefault();
                remove();
              }
            }}
          >
            {chosen.map((option) => (
              <option key={key(option.value)} value={key(option.value)}>
                {text(option)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FieldError id={errorId} issue={issue} />
      {children}
    </fieldset>
  );
}
