/**
 * "Who is it?" of a family-step item: one native select (the phone's own picker) whose groups
 * are the woman's family, the partner's and the couple's children, each choice naming the
 * person in full ("The woman's paternal grandfather"). It answers the item's side and
 * relationship together (src/intake/relatives.ts), so the side is asked once.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';
import { optionsFor, type FieldDef, type OptionValue } from './index';
import { relativeChoiceByKey, relativeChoiceOf, relativeGroups } from './relatives';
import { describedBy, FieldError, FieldLabel } from '../components/FieldParts';
import './combobox.css';

export interface RelativeAnswer {
  side: OptionValue | null;
  relationship: OptionValue | null;
}

export interface RelativeFieldProps {
  id: string;
  field: FieldDef;
  required: boolean;
  value: RelativeAnswer;
  onChange: (value: RelativeAnswer) => void;
  locale: Locale;
  invalid: boolean;
  errorId: string;
  issue: string | null;
  /** The "other" free text. */
  children?: ReactNode;
}

/** The value of the option that shows an answer no choice matches (saved without its side). */
const UNMATCHED = 'saved';

export function RelativeField({ id, field, required, value, onChange, locale, invalid, errorId, issue, children }: RelativeFieldProps) {
  const { t } = useTranslation('intake');
  const hintId = `${id}-hint`;
  const current = relativeChoiceOf(value.side, value.relationship);
  // An answer no choice shows (a relationship saved without its side) is shown as it was saved.
  const relation =
    current === null && value.relationship !== null
      ? (optionsFor(field, null).find((option) => option.value === value.relationship)?.label[locale] ?? String(value.relationship))
      : null;
  const unmatched = relation === null ? null : t('relative.sideMissing', { relation });
  const selected = current?.key ?? (unmatched !== null ? UNMATCHED : '');
  return (
    <div className="field relative-field" data-invalid={invalid || undefined}>
      <FieldLabel htmlFor={id} label={field.label[locale]} required={required} />
      <p id={hintId} className="hint">
        {t('relative.hint')}
      </p>
      <select
        id={id}
        value={selected}
        aria-invalid={invalid}
        aria-required={required}
        aria-describedby={describedBy(hintId, invalid && errorId)}
        onChange={(event) => {
          const choice = relativeChoiceByKey(event.target.value);
          if (choice !== null) onChange({ side: choice.side, relationship: choice.relationship });
          else if (event.target.value === '') onChange({ side: null, relationship: null });
        }}
      >
        <option value="">{t('choose')}</option>
        {unmatched !== null && (
          <option value={UNMATCHED} disabled>
            {unmatched}
          </option>
        )}
        {relativeGroups.map((group, g) => (
          <optgroup key={g} label={group.label[locale]}>
            {group.choices.map((choice, c) => (
              <option key={c} value={`${String(g)}.${String(c)}`}>
                {choice.label[locale]}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <FieldError id={errorId} issue={issue} />
      {children}
    </div>
  );
}
