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
const key = (code: OptionValue) => String(code);

interface TransferColumnProps {
  id: string;
  label: string;
  size: number;
  entries: OptionDef[];
  /** The entries selected in the list (their keys). */
  picked: string[];
  onPick: (picked: string[]) => void;
  /** The keys that move the selected entries to the other list. */
  moveKeys: readonly string[];
  onMove: () => void;
  text: (option: OptionDef) => string;
}

/** One of the two lists: a labelled native multi-select. */
function TransferColumn({ id, label, size, entries, picked, onPick, moveKeys, onMove, text }: TransferColumnProps) {
  return (
    <div className="transfer-column">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        multiple
        size={size}
        value={picked}
        onChange={(event) => {
          onPick(selectedValues(event.target));
        }}
        onKeyDown={(event) => {
          if (moveKeys.includes(event.key)) {
            event.preventDefault();
            onMove();
          }
        }}
      >
        {entries.map((option) => (
          <option key={key(option.value)} value={key(option.value)}>
            {text(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TransferList({ id, label, required, options, value, onChange, locale, invalid, errorId, issue, children }: TransferListProps) {
  const { t } = useTranslation('intake');
  const [pickAvailable, setPickAvailable] = useState<string[]>([]);
  const [pickChosen, setPickChosen] = useState<string[]>([]);
  const chosen = options.filter((option) => value.includes(option.value));
  const available = options.filter((option) => !value.includes(option.value));
  const hintId = `${id}-hint`;
  const size = Math.min(8, Math.max(4, options.length));

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
        <TransferColumn
          id={`${id}-available`}
          label={t('transfer.available', { label })}
          size={size}
          entries={available}
          picked={pickAvailable}
          onPick={setPickAvailable}
          moveKeys={['Enter']}
          onMove={add}
          text={text}
        />
        <div className="transfer-buttons">
          <button type="button" className="secondary" onClick={add} disabled={pickAvailable.length === 0}>
            {t('transfer.add')}
          </button>
          <button type="button" className="secondary" onClick={remove} disabled={pickChosen.length === 0}>
            {t('transfer.remove')}
          </button>
        </div>
        <TransferColumn
          id={`${id}-chosen`}
          label={t('transfer.chosen', { label })}
          size={size}
          entries={chosen}
          picked={pickChosen}
          onPick={setPickChosen}
          moveKeys={['Enter', 'Delete']}
          onMove={remove}
          text={text}
        />
      </div>
      <FieldError id={errorId} issue={issue} />
      {children}
    </fieldset>
  );
}
