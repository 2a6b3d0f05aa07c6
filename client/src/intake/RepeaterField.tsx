/**
 * A list of items (family members, analysis reports): each item a group "Entry n" with the
 * item fields of the definition and a remove button; an add button while fewer than maxItems.
 * Item fields follow their own conditions; their problems are keyed "<path>.<index>.<field>".
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fieldDomId,
  getPath,
  itemFormValues,
  scopeOf,
  setPath,
  toWireValue,
  type Category,
  type FieldDef,
  type FormItem,
} from './index';
import { FieldError, RequiredMark } from '../components/FieldParts';
import { FieldControl, type FieldContext } from './IntakeField';
import { ShownFields, type RenderControl } from './ShownFields';
import { loadComboboxField } from './comboboxLoader';
import { RelativeField } from './RelativeField';

export interface RepeaterFieldProps {
  field: FieldDef;
  value: FormItem[];
  onChange: (value: FormItem[]) => void;
  required: boolean;
  /** The problem's words by full path (the repeater's own and its items'). */
  issueAt: (path: string) => string | null;
  context: FieldContext;
}

/** The wire answers of one item (for its conditions). */
function itemWire(fields: readonly FieldDef[], item: FormItem, category: Category): Record<string, unknown> {
  let wire: Record<string, unknown> = {};
  for (const child of fields) wire = setPath(wire, child.path, toWireValue(child, getPath(item, child.path), category));
  return wire;
}

export function RepeaterField({ field, value, onChange, required, issueAt, context }: RepeaterFieldProps) {
  const { t } = useTranslation('intake');
  const { locale, category } = context;
  const id = fieldDomId(field.path);
  const children = field.fields ?? [];
  const issue = issueAt(field.path);
  const canAdd = field.maxItems === undefined || value.length < field.maxItems;
  const addLabel = field.addLabel?.[locale] ?? '';
  const hasCombobox = children.some((child) => child.type === 'combobox');

  // Its entries' combo box is fetched now, while the connection is known to work.
  useEffect(() => {
    if (hasCombobox) void loadComboboxField().catch(() => undefined);
  }, [hasCombobox]);

  const update = (index: number, changes: Record<string, unknown>) => {
    onChange(value.map((item, i) => (i === index ? Object.entries(changes).reduce((acc, [path, next]) => setPath(acc, path, next), item) : item)));
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
        const itemPath = `${field.path}.${String(index)}`;
        // An item field's answer lives in the item; its problems are keyed by its full path.
        const renderChild: RenderControl = (child, childRequired, other) => {
          const childPath = `${itemPath}.${child.path}`;
          const sideField = child.sideField;
          if (sideField !== undefined) {
            const sidePath = `${itemPath}.${sideField}`;
            const relativeIssue = issueAt(childPath) ?? issueAt(sidePath);
            const answer = (path: string) => {
              const stored = getPath(item, path);
              return typeof stored === 'number' || typeof stored === 'string' ? stored : null;
            };
            return (
              <RelativeField
                id={fieldDomId(childPath)}
                field={child}
                required={childRequired}
                value={{ side: answer(sideField), relationship: answer(child.path) }}
                onChange={(next) => {
                  update(index, { [sideField]: next.side, [child.path]: next.relationship });
                }}
                locale={locale}
                invalid={relativeIssue !== null}
                errorId={`${fieldDomId(childPath)}-error`}
                issue={relativeIssue}
              >
                {other}
              </RelativeField>
            );
          }
          return (
            <FieldControl
              field={child}
              path={childPath}
              value={getPath(item, child.path)}
              onChange={(next) => {
                update(index, { [child.path]: next });
              }}
              required={childRequired}
              issue={issueAt(childPath)}
              context={context}
            >
              {other}
            </FieldControl>
          );
        };
        return (
          // Items have no id of their own; their inputs hold no state that an index key could mix up.
          <fieldset key={index} className="repeater-item conditional">
            <legend>{t('repeater.item', { n })}</legend>
            <ShownFields fields={children} scope={scopeOf(itemWire(children, item, category), category)} render={renderChild} />
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
