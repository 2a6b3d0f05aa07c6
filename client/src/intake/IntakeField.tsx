/**
 * One questionnaire field, rendered from its definition: label (or legend) with the pink
 * asterisk when required, the input of its type, a hint, and its problem announced and linked
 * by aria-describedby. Values in, values out: the step form owns them (react-hook-form).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  definition,
  definitionMessage,
  fieldDomId,
  optionsFor,
  pickerBoundsOf,
  textLength,
  toggleChoice,
  type FieldDef,
  type OptionDef,
  type OptionValue,
  type ValidationContext,
} from './index';
import type { Locale } from '../i18n/locale';
import { DateField } from './DateField';
import { describedBy, EMAIL_INPUT, FieldError, FieldLabel, RequiredMark } from '../components/FieldParts';
import { ComboboxPlaceholder } from './ComboboxPlaceholder';
import { loadComboboxField } from './comboboxLoader';
import { CharacterCounter } from './CharacterCounter';
import { toHalfWidth } from '../validation/halfWidth';

// react-aria-components weigh about 240 kB: only a step with a combo box (the family step)
// loads them, the other steps stay small.
const ComboboxField = lazy(() => loadComboboxField().then((module) => ({ default: module.ComboboxField })));

/**
 * What every field of the questionnaire is shown in, the same for all the fields of a step:
 * the person's language, and the service category and clinic day that its rules depend on
 * (option lists, date bounds).
 */
export interface FieldContext extends ValidationContext {
  locale: Locale;
}

export interface FieldControlProps {
  field: FieldDef;
  /** Full path (items: "<repeater>.<index>.<field>"): ids and problems are keyed by it. */
  path: string;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur?: () => void;
  required: boolean;
  /** The problem's words, or null. */
  issue: string | null;
  context: FieldContext;
  /** Shown inside the field's group after the options (the "other" free text). */
  children?: ReactNode;
}

const optionKey = (value: OptionValue) => `${typeof value}:${String(value)}`;

/** A select's options in the order its definition asks: as listed, or by label in the person's language. */
function ordered(field: FieldDef, options: OptionDef[], locale: Locale): OptionDef[] {
  const { sortOptions } = field;
  if (sortOptions === undefined) return options;
  const collator = new Intl.Collator(locale);
  const rank = (option: OptionDef) => {
    const index = sortOptions.first.indexOf(option.value);
    return index === -1 ? sortOptions.first.length : index;
  };
  return [...options].sort((a, b) => rank(a) - rank(b) || collator.compare(a.label[locale], b.label[locale]));
}

/** Text input attributes that help browsers and phones, by rule. */
function textInputType(field: FieldDef): { type: string; autoComplete?: string; inputMode?: 'tel' | 'email' | 'numeric'; spellCheck?: boolean } {
  if (field.rule === 'email') return EMAIL_INPUT;
  if (field.rule === 'phone' || (field.rule !== undefined && definition.rules[field.rule]?.check === 'phone')) {
    return { type: 'tel', autoComplete: 'tel', inputMode: 'tel' };
  }
  if (field.type === 'number') return { type: 'text', inputMode: 'numeric' };
  return { type: 'text' };
}

export function FieldControl(props: FieldControlProps) {
  const { field, path, value, onChange, onBlur, required, issue, context, children } = props;
  const { locale, category, today } = context;
  const { t } = useTranslation('intake');
  const id = fieldDomId(path);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const label = field.label[locale];
  const invalid = issue !== null;
  const options: OptionDef[] = optionsFor(field, category);
  const hint = field.hint?.[locale] ?? (field.list === true ? definitionMessage('otherSeparator', locale) : null);
  const counterId = `${id}-count`;
  const counted = field.type === 'textarea' && field.maxLength !== undefined ? field.maxLength : null;

  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'number': {
      const common = {
        id,
        value: typeof value === 'string' ? value : '',
        'aria-invalid': invalid,
        'aria-required': required,
        'aria-describedby': describedBy(hint !== null && hintId, counted !== null && counterId, invalid && errorId),
        onBlur: () => {
          // A typed value is shown as it is saved: full-width letters and digits half-width.
          if (field.rule !== undefined && typeof value === 'string' && toHalfWidth(value) !== value) onChange(toHalfWidth(value));
          onBlur?.();
        },
      };
      return (
        <div className="field" data-invalid={invalid || undefined}>
          <FieldLabel htmlFor={id} label={label} required={required} />
          {field.type === 'textarea' ? (
            <textarea
              {...common}
              rows={4}
              onChange={(event) => {
                onChange(event.target.value);
              }}
            />
          ) : (
            <input
              {...common}
              {...textInputType(field)}
              spellCheck={field.rule === undefined}
              onChange={(event) => {
                onChange(event.target.value);
              }}
            />
          )}
          {counted !== null && (
            <CharacterCounter id={counterId} length={textLength(common.value)} max={counted} locale={locale} />
          )}
          {hint !== null && (
            <p id={hintId} className="hint">
              {hint}
            </p>
          )}
          <FieldError id={errorId} issue={issue} />
        </div>
      );
    }
    case 'date':
      return (
        <div className="field" data-invalid={invalid || undefined}>
          <DateField
            id={id}
            label={label}
            required={required}
            value={typeof value === 'string' ? value : ''}
            onChange={onChange}
            {...(onBlur ? { onBlur } : {})}
            bounds={pickerBoundsOf(field, today)}
            today={today}
            locale={locale}
            invalid={invalid}
            errorId={invalid ? errorId : undefined}
          />
          <FieldError id={errorId} issue={issue} />
        </div>
      );
    case 'select': {
      const choices = ordered(field, options, locale);
      const selected = choices.findIndex((option) => option.value === value);
      return (
        <div className="field" data-invalid={invalid || undefined}>
          <FieldLabel htmlFor={id} label={label} required={required} />
          <select
            id={id}
            value={selected === -1 ? '' : String(selected)}
            aria-invalid={invalid}
            aria-required={required}
            aria-describedby={describedBy(invalid && errorId)}
            onBlur={onBlur}
            onChange={(event) => {
              const option = choices[Number(event.target.value)];
              onChange(event.target.value === '' || !option ? null : option.value);
            }}
          >
            <option value="">{t('choose')}</option>
            {choices.map((option, index) => (
              <option key={optionKey(option.value)} value={String(index)}>
                {option.label[locale]}
              </option>
            ))}
          </select>
          <FieldError id={errorId} issue={issue} />
          {children}
        </div>
      );
    }
    case 'radio':
    case 'scale':
    case 'checkbox': {
      const multiple = field.type === 'checkbox';
      const chosen = Array.isArray(value) ? (value as OptionValue[]) : [];
      const toggle = (option: OptionValue, checked: boolean) => {
        // Kept in the order of the option list; "none" (an exclusive option) alone.
        onChange(toggleChoice(options, chosen, option, checked));
      };
      return (
        <fieldset
          className={`field choice-group ${field.type === 'scale' ? 'scale' : ''}`}
          data-invalid={invalid || undefined}
          aria-describedby={describedBy(invalid && errorId)}
        >
          <legend>
            {label}
            {required && <RequiredMark />}
          </legend>
          <div className="choices">
            {options.map((option, index) => {
              const optionId = `${id}-${String(index)}`;
              const checked = multiple ? chosen.includes(option.value) : value === option.value;
              return (
                <label key={optionKey(option.value)} className="choice" htmlFor={optionId}>
                  <input
                    id={optionId}
                    type={multiple ? 'checkbox' : 'radio'}
                    name={id}
                    checked={checked}
                    onBlur={onBlur}
                    onChange={(event) => {
                      if (multiple) toggle(option.value, event.target.checked);
                      else onChange(option.value);
                    }}
                  />
                  <span>{option.label[locale]}</span>
                </label>
              );
            })}
          </div>
          <FieldError id={errorId} issue={issue} />
          {children}
        </fieldset>
      );
    }
    case 'combobox':
      return (
        <Suspense fallback={<ComboboxPlaceholder label={label} required={required} errorId={errorId} issue={issue} />}>
          <ComboboxField
            id={id}
            label={label}
            required={required}
            options={options}
            value={Array.isArray(value) ? (value as OptionValue[]) : []}
            onChange={onChange}
            locale={locale}
            invalid={invalid}
            errorId={errorId}
            issue={issue}
          >
            {children}
          </ComboboxField>
        </Suspense>
      );
    case 'repeater':
      // Rendered by RepeaterField (it needs the item fields' own state and problems).
      return null;
  }
}
