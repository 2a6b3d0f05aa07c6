/**
 * A list of items (family members, analysis reports): each item a group "Entry n" with the
 * item fields of the definition and a remove button; an add button while fewer than maxItems.
 * Item fields follow their own conditions; their problems are keyed "<path>.<index>.<field>".
 */
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';
import {
  dateBoundsOf,
  fieldDomId,
  getPath,
  isFieldRequired,
  isFieldVisible,
  itemFormValues,
  otherParents,
  scopeOf,
  setPath,
  toWireValue,
  type Category,
  type FieldDef,
  type FormItem,
} from './index';
import { FieldError, RequiredMark } from '../components/FieldParts';
import { FieldControl } from './IntakeField';

export interface RepeaterFieldProps {
  field: FieldDef;
  value: FormItem[];
  onChange: (value: FormItem[]) => void;
  required: boolean;
  /** The problem's words by full path (the repeater's own and its items'). */
  issueAt: (path: string) => string | null;
  locale: Locale;
  category: Category;
  today: string;
}

/** The wire answers of one item (for its conditions). */
function itemWire(fields: readonly FieldDef[], item: FormItem, category: Category): Record<string, unknown> {
  let wire: Record<string, unknown> = {};
  for (const child of fields) wire = setPath(wire, child.path, toWireValue(child, getPath(item, child.path), category));
  return wire;
}

export function RepeaterField({ field, value, onChange, required, issueAt, locale, category, today }: RepeaterFieldProps) {
  const { t } = useTranslation('intake');
  const id = fieldDomId(field.path);
  const children = field.fields ?? [];
  const others = otherParents(children);
  const issue = issueAt(field.path);
  const canAdd = field.maxItems === undefined || value.length < field.maxItems;
  const addLabel = field.addLabel?.[locale] ?? '';

  const update = (index: number, path: string, next: unknown) => {
    onChange(value.map((item, i) => (i === index ? setPath(item, path, next) : item)));
  };

  return (
    <fieldset className="field repeater" data-invalid={issue !== null || undefined} aria-describedby={issue !== null ? `${id}-error` : undefined}>
      <legend>
        {field.label[locale]}
        {required && <RequiredMark />}
      </legend>
      {value.length === 0 && <p className="hint">{t('repeater.empty')}</p>}
      {value.map((item, index) => {
        const n = index + 1;
        const scope = scopeOf(itemWire(children, item, category), category);
        const itemPath = `${field.path}.${String(index)}`;
        const renderChild = (child: FieldDef) => {
          if (!isFieldVisible(child, children, scope)) return null;
          const childPath = `${itemPath}.${child.path}`;
          const otherChild = children.find((candidate) => candidate.path === child.other);
          return (
            <div key={child.path} className={others.has(child.path) || child.when ? 'conditional' : undefined}>
              <FieldControl
                field={child}
                path={childPath}
                value={getPath(item, child.path)}
                onChange={(next) => {
                  update(index, child.path, next);
                }}
                required={isFieldRequired(child, children, scope)}
                issue={issueAt(childPath)}
                locale={locale}
                category={category}
                bounds={dateBoundsOf(child, today)}
                today={today}
              >
                {otherChild ? renderChild(otherChild) : null}
              </FieldControl>
            </div>
          );
        };
        return (
          // Items have no id of their own; their inputs hold no state that an index key could mix up.
          <fieldset key={index} className="repeater-item conditional">
            <legend>{t('repeater.item', { n })}</legend>
            {children.filter((child) => !others.has(child.path)).map(renderChild)}
            <button
              type="button"
              className="link-button remove-item"
              onClick={() => {
                onChange(value.filter((_, i) => i !== index));
              }}
            >
              {t('repeater.remove', { n })}
            </button>
          </fieldset>
        );
      })}
      <FieldError id={`${id}-error`} issue={issue} />
      {canAdd && (
        <button
          type="button"
          className="secondary add-item"
          onClick={() => {
            onChange([...value, itemFormValues(field)]);
          }}
        >
          {addLabel}
        </button>
      )}
    </fieldset>
  );
}
