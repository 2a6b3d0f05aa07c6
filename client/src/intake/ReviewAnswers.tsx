/**
 * One step's answers in readable form: on the review page with an "Edit" link back to the
 * step; on the staff's appointment page (`editable` false) without it. Either way labels and
 * answers in words, never codes, and what was left empty said as such.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Locale } from '../i18n/locale';
import {
  definitionMessage,
  formatAnswer,
  formatRelative,
  getPath,
  isEmptyAnswer,
  isFieldRequired,
  isFieldVisible,
  otherParents,
  resolveField,
  scopeOf,
  type Category,
  type FieldDef,
  type StepDef,
} from './index';

interface Display {
  locale: Locale;
  category: Category;
  listSeparator: string;
  /** Staff: conditions with their classification codes. */
  showCodes?: boolean;
}

function Rows({ fields, answers, display }: { fields: readonly FieldDef[]; answers: unknown; display: Display }) {
  const { t } = useTranslation('intake');
  const scope = scopeOf(answers, display.category);
  const others = otherParents(fields);
  return (
    <dl className="review-rows">
      {fields
        // A field answered by a sibling's control (the side, by "Who is it?") is shown in its row.
        .filter((field) => !others.has(field.path) && field.askedWith === undefined && isFieldVisible(field, fields, scope))
        .map((field) => {
          const value = getPath(answers, field.path);
          const otherField = fields.find((candidate) => candidate.path === field.other);
          const other = otherField ? { field: otherField, value: getPath(answers, otherField.path) } : undefined;
          const sideField = fields.find((candidate) => candidate.path === field.sideField);
          const sideMissing =
            sideField !== undefined && isEmptyAnswer(sideField, getPath(answers, sideField.path)) && isFieldRequired(sideField, fields, scope);
          const missing = (isEmptyAnswer(field, value) && isFieldRequired(field, fields, scope)) || sideMissing;
          let shown;
          if (field.type === 'repeater') {
            const items: unknown[] = Array.isArray(value) ? (value as unknown[]) : [];
            shown =
              items.length === 0 ? null : (
                <ol className="review-items">
                  {items.map((item, index) => (
                    <li key={index}>
                      <p className="review-item-title">{t('repeater.item', { n: index + 1 })}</p>
                      <Rows fields={field.fields ?? []} answers={item} display={display} />
                    </li>
                  ))}
                </ol>
              );
          } else if (sideField !== undefined) {
            shown = formatRelative(getPath(answers, sideField.path), value, display, other) ?? formatAnswer(field, value, display, other);
          } else {
            shown = formatAnswer(field, value, display, other);
          }
          return (
            <div key={field.path} className="review-row">
              <dt>{resolveField(field, fields, scope).label[display.locale]}</dt>
              <dd>
                {shown ?? (field.type === 'repeater' ? t('review.noItems') : t('review.notAnswered'))}
                {missing && <span className="required-text"> {definitionMessage('required', display.locale)}</span>}
              </dd>
            </div>
          );
        })}
    </dl>
  );
}

export function ReviewAnswers({
  step,
  document,
  display,
  editable = true,
  level = 2,
}: {
  step: StepDef;
  document: unknown;
  display: Display;
  editable?: boolean;
  /** The heading level of the step's title (3 under a page section). */
  level?: 2 | 3;
}) {
  const { t } = useTranslation('intake');
  const headingId = useId();
  const title = step.title[display.locale];
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <section className="review-step" aria-labelledby={headingId}>
      <div className="review-heading">
        <Heading id={headingId}>{title}</Heading>
        {editable && (
          <Link to={step.route} aria-label={t('review.editStep', { step: title })}>
            {t('review.edit')}
          </Link>
        )}
      </div>
      <Rows fields={step.fields} answers={document} display={display} />
    </section>
  );
}
