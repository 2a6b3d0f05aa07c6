/**
 * One questionnaire field, rendered from its definition: label (or legend) with the pink
 * asterisk when required, the input of its type, a hint, and its problem announced and linked
 * by aria-describedby. Values in, values out: the step form owns them (react-hook-form).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  dateBoundsOf,
  definitionMessage,
  fieldDomId,
  optionsFor,
  type FieldDef,
  type OptionDef,
  type OptionValue,
  type ValidationContext,
} from './index';
import type { Locale } from '../i18n/locale';
import { DateField } from './DateField';
import { describedBy, EMAIL_INPUT, FieldError, FieldLabel, RequiredMark } from '../components/FieldParts';
import { TransferList } from './TransferList';

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

/** Text input attributes that help browsers and phones, by rule. */
function textInputType(field: FieldDef): { type: string; autoComplete?: string; inputMode?: 'tel' | 'email' | 'numeric'; spellCheck?: boolean } {
  if (field.rule === 'email') return EMAIL_INPUT;
  if (field.rule === 'phone') return { type: 'tel', autoComplete: 'tel', inputMode: 'tel' };
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
  const hint = field.list === true ? definitionMessage('otherSeparator', locale) : null;

  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'number': {
      const common = {
        id,
        value: typeof value === 'string' ? value : '',
        'aria-invalid': invalid,
        'aria-required': required,
        'aria-describedby': describedBy(hint !== null && hintId, invalid && errorId),
        onBlur,
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
            bounds={dateBoundsOf(field, today)}
            today={today}
            locale={locale}
            invalid={invalid}
            errorId={invalid ? errorId : undefined}
          />
          <FieldError id={errorId} issue={issue} />
        </div>
      );
    case 'select': {
      const selected = options.findIndex((option) => option.value === value);
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
              const option = options[Number(event.target.value)];
              onChange(event.target.value === '' || !option ? null : option.value);
            }}
          >
            <option value="">{t('choose')}</option>
            {options.map((option, index) => (
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
        const next = new Set(chosen);
        if (checked) next.add(option);
        else next.delete(option);
        // Kept in the order of the option list.
        onChange(options.map((candidate) => candidate.value).filter((candidate) => next.has(candidate)));
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
    case 'transferlist':
      return (
        <TransferList
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
        </TransferList>
      );
    case 'repeater':
      // Rendered by RepeaterField (it needs the item fields' own state and problems).
      return null;
  }
}
