/**
 * Two lists, the conditions available and those chosen, with buttons that move the selected
 * entries (Enter in a list does the same). Each entry shows its classification code and
 * whether it is external. Native multi-select lists: keyboard and screen readers know them.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';
import { OTHER, type OptionDef, type OptionValue } from './index';
import { describedBy, FieldError, RequiredMark } from '../components/FieldParts';

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

/** The two lists: the conditions not chosen, and those chosen. */
type Side = 'available' | 'chosen';

/** The keys that move a list's selected entries to the other list (Delete also removes). */
const MOVE_KEYS: Readonly<Record<Side, readonly string[]>> = { available: ['Enter'], chosen: ['Enter', 'Delete'] };

/** What both lists show alike: named after the field, the same height, the same entry text. */
interface ListLook {
  id: string;
  label: string;
  size: number;
  text: (option: OptionDef) => string;
}

/** A list's selected entries (their keys), and moving them to the other list. */
interface Selection {
  picked: string[];
  onPick: (picked: string[]) => void;
  onMove: () => void;
}

/** A list's selection; moving hands the picked keys to `move` and clears the selection. */
function useSelection(move: (picked: string[]) => void): Selection {
  const [picked, setPicked] = useState<string[]>([]);
  const onMove = () => {
    if (picked.length === 0) return;
    move(picked);
    setPicked([]);
  };
  return { picked, onPick: setPicked, onMove };
}

/** One of the two lists: a labelled native multi-select. */
function TransferColumn({ side, look, entries, selection }: { side: Side; look: ListLook; entries: OptionDef[]; selection: Selection }) {
  const { t } = useTranslation('intake');
  const id = `${look.id}-${side}`;
  return (
    <div className="transfer-column">
      <label htmlFor={id}>{t(`transfer.${side}`, { label: look.label })}</label>
      <select
        id={id}
        multiple
        size={look.size}
        value={selection.picked}
        onChange={(event) => {
          selection.onPick(selectedValues(event.target));
        }}
        onKeyDown={(event) => {
          if (MOVE_KEYS[side].includes(event.key)) {
            event.preventDefault();
            selection.onMove();
          }
        }}
      >
        {entries.map((option) => (
          <option key={key(option.value)} value={key(option.value)}>
            {look.text(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TransferList({ id, label, required, options, value, onChange, locale, invalid, errorId, issue, children }: TransferListProps) {
  const { t } = useTranslation('intake');
  const chosen = options.filter((option) => value.includes(option.value));
  const available = options.filter((option) => !value.includes(option.value));
  const hintId = `${id}-hint`;

  const text = (option: OptionDef) => {
    const name = option.label[locale];
    if (option.value === OTHER) return name;
    const code = String(option.value);
    return `${name} (${option.external === true ? t('transfer.externalCode', { code }) : code})`;
  };
  const look: ListLook = { id, label, size: Math.min(8, Math.max(4, options.length)), text };
  /** The new answer, kept in the order of the option list. */
  const answer = (codes: Set<string>) => options.filter((option) => codes.has(key(option.value))).map((option) => option.value);

  const adding = useSelection((picked) => {
    onChange(answer(new Set([...value.map(key), ...picked])));
  });
  const removing = useSelection((picked) => {
    const removed = new Set(picked);
    onChange(answer(new Set(value.map(key).filter((code) => !removed.has(code)))));
  });

  return (
    <fieldset className="field transfer-list" data-invalid={invalid || undefined} aria-describedby={describedBy(hintId, invalid && errorId)}>
      <legend>
        {label}
        {required && <RequiredMark />}
      </legend>
      <p id={hintId} className="hint">
        {t('transfer.hint')}
      </p>
      <div className="transfer-columns">
        <TransferColumn side="available" look={look} entries={available} selection={adding} />
        <div className="transfer-buttons">
          <button type="button" className="secondary" onClick={adding.onMove} disabled={adding.picked.length === 0}>
            {t('transfer.add')}
          </button>
          <button type="button" className="secondary" onClick={removing.onMove} disabled={removing.picked.length === 0}>
            {t('transfer.remove')}
          </button>
        </div>
        <TransferColumn side="chosen" look={look} entries={chosen} selection={removing} />
      </div>
      <FieldError id={errorId} issue={issue} />
      {children}
    </fieldset>
  );
}
