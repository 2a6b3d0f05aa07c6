/**
 * The family history as a pedigree (layout.ts): standard symbols (square male, circle female,
 * diamond sex unknown; shaded affected; slashed deceased; an arrow at the person counseled; a
 * small diamond with "P" for the current pregnancy), each person named in words for assistive
 * technology (a `<title>` and `aria-label`: "Mother (Woman's side), affected: Down syndrome"),
 * then a legend and the same people as a table, which also prints.
 */
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../i18n/locale';
import { definition, formatAnswer, optionsFor, type Category, type FieldDef } from '../../intake';
import { isRecord } from '../../isRecord';
import { isAffected, type Person } from './family';
import { SYMBOL, type PedigreeLayout, type PlacedPerson } from './layout';

const FAMILY_PATH = 'intake.familyMembers';
const familyField: FieldDef | undefined = definition.steps.flatMap((step) => step.fields).find((field) => field.path === FAMILY_PATH);
const itemField = (path: string): FieldDef | undefined => familyField?.fields?.find((field) => field.path === path);

interface Words {
  locale: Locale;
  category: Category;
  listSeparator: string;
  showCodes?: boolean;
}

/** The conditions of a person in words: the definition's labels, then the free-text ones. */
function conditionsOf(person: Person, words: Words): string {
  const field = itemField('disorders');
  const listed = field ? formatAnswer(field, person.disorders, words) : null;
  return [...(listed === null ? [] : [listed]), ...person.disordersOther].join(words.listSeparator);
}

function optionLabel(path: string, value: unknown, words: Words): string | null {
  const field = itemField(path);
  const option = field ? optionsFor(field, words.category).find((candidate) => candidate.value === value) : undefined;
  return option ? option.label[words.locale] : null;
}

/** Who a person is, in words: "Mother (Woman's side)", "Partner", "Sibling (not in the answers)". */
export function usePersonName(words: Words): (person: Person) => string {
  const { t } = useTranslation('staff');
  return (person) => {
    const side = person.side === null ? null : optionLabel('side', person.side === 'woman' ? 0 : 1, words);
    let name: string;
    if (person.role === 'relative') {
      const relation = optionLabel('relationship', person.relationship, words) ?? String(person.relationship);
      name = side === null ? relation : t('pedigree.onSide', { relation, side });
    } else {
      name = t(`pedigree.role.${person.role}`);
      if (side !== null && (person.role === 'sibling' || person.role === 'parentsSibling')) name = t('pedigree.onSide', { relation: name, side });
    }
    return person.reported ? name : t('pedigree.notInAnswers', { name });
  };
}

/** -1 on the woman's side (left), 1 on the partner's. */
function outward(person: Person): number {
  return person.side === 'partner' ? 1 : -1;
}

function PersonSymbol({ person }: { person: PlacedPerson }) {
  const half = (person.pregnancy ? SYMBOL * 0.7 : SYMBOL) / 2;
  const { x, y } = person;
  const fill = isAffected(person) ? 'currentColor' : 'var(--surface, #fff)';
  const common = { fill, stroke: 'currentColor', strokeWidth: 2 };
  let shape;
  if (person.sex === 'male') shape = <rect x={x - half} y={y - half} width={half * 2} height={half * 2} {...common} data-symbol="square" />;
  else if (person.sex === 'female') shape = <circle cx={x} cy={y} r={half} {...common} data-symbol="circle" />;
  else
    shape = (
      <polygon
        points={`${String(x)},${String(y - half * 1.2)} ${String(x + half * 1.2)},${String(y)} ${String(x)},${String(y + half * 1.2)} ${String(x - half * 1.2)},${String(y)}`}
        {...common}
        data-symbol="diamond"
      />
    );
  return (
    <>
      {shape}
      {person.pregnancy && (
        <text x={x} y={y + 4} textAnchor="middle" fontSize="11" fontWeight="700" fill="currentColor">
          P
        </text>
      )}
      {person.deceased && <line x1={x - half - 6} y1={y + half + 6} x2={x + half + 6} y2={y - half - 6} stroke="currentColor" strokeWidth={2} />}
    </>
  );
}

export function PedigreeChart({ layout, words }: { layout: PedigreeLayout; words: Words }) {
  const { t } = useTranslation('staff');
  const id = useId();
  const nameOf = usePersonName(words);
  const describe = (person: PlacedPerson) => {
    const conditions = conditionsOf(person, words);
    const parts = [`${person.label} ${nameOf(person)}`];
    if (conditions !== '') parts.push(t('pedigree.affected', { conditions }));
    if (person.proband) parts.push(t('pedigree.probandNote'));
    return parts.join(t('pedigree.separator'));
  };
  const affected = layout.people.filter(isAffected).length;
  return (
    <figure className="pedigree" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="pedigree-caption">
        {t('pedigree.caption', { count: layout.people.length, affected })}
      </figcaption>
      <div className="pedigree-scroll" role="region" aria-label={t('pedigree.drawing')} tabIndex={0}>
        <svg
          className="pedigree-svg"
          role="group"
          aria-labelledby={`${id}-title`}
          viewBox={`0 0 ${String(layout.width)} ${String(layout.height)}`}
          width={layout.width}
          height={layout.height}
        >
          <title id={`${id}-title`}>{t('pedigree.drawing')}</title>
          <defs>
            <marker id={`${id}-arrow`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" />
            </marker>
          </defs>
          <g aria-hidden="true" fontSize="13" fontWeight="700" fill="currentColor">
            {layout.generations.map((generation) => (
              <text key={generation.label} x={8} y={generation.y + 5}>
                {generation.label}
              </text>
            ))}
          </g>
          <g aria-hidden="true" stroke="currentColor" strokeWidth={1.5}>
            {layout.lines.map((line, i) => (
              <line key={i} x1={line.x1} y1={line.y1} x2={line.x2} y2={line.y2} data-line={line.kind} />
            ))}
          </g>
          {layout.people.map((person) => {
            const text = describe(person);
            return (
              <g key={person.id} role="img" aria-label={text} data-person={person.id} data-affected={isAffected(person) || undefined}>
                <title>{text}</title>
                <PersonSymbol person={person} />
                {person.proband && (
                  // From below on the outer side: the couple's own line leaves between them.
                  <line
                    x1={person.x + outward(person) * SYMBOL * 1.3}
                    y1={person.y + SYMBOL * 1.1}
                    x2={person.x + outward(person) * (SYMBOL / 2 + 3)}
                    y2={person.y + SYMBOL / 2 + 3}
                    stroke="currentColor"
                    strokeWidth={2}
                    markerEnd={`url(#${id}-arrow)`}
                    data-proband-arrow=""
                  />
                )}
                <text
                  x={person.labelBeside ? person.x + SYMBOL / 2 + 4 : person.x}
                  y={person.labelBeside ? person.y + SYMBOL / 2 + 4 : person.y + SYMBOL / 2 + 15}
                  textAnchor={person.labelBeside ? 'start' : 'middle'}
                  fontSize="11"
                  fill="currentColor"
                  aria-hidden="true"
                >
                  {person.label}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <PedigreeLegend />
      <table className="pedigree-people">
        <caption>{t('pedigree.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('pedigree.number')}</th>
            <th scope="col">{t('pedigree.person')}</th>
            <th scope="col">{t('pedigree.conditions')}</th>
          </tr>
        </thead>
        <tbody>
          {layout.people.map((person) => (
            <tr key={person.id}>
              <td>{person.label}</td>
              <td>
                {nameOf(person)}
                {person.proband && ` (${t('pedigree.probandNote')})`}
              </td>
              <td>{conditionsOf(person, words) || t('pedigree.none')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {layout.unplaced.length > 0 && (
        <div className="pedigree-unplaced">
          <p>{t('pedigree.unplaced')}</p>
          <ul>
            {layout.unplaced.map(({ index, entry }) => (
              <li key={index}>{unplacedText(entry, words, { relationUnknown: t('pedigree.relationUnknown'), none: t('pedigree.none') })}</li>
            ))}
          </ul>
        </div>
      )}
    </figure>
  );
}

function unplacedText(entry: Record<string, unknown>, words: Words, fallback: { relationUnknown: string; none: string }): string {
  const relationField = itemField('relationship');
  const relationOther = itemField('relationshipOther');
  const relation =
    relationField && relationOther
      ? formatAnswer(relationField, entry.relationship, words, { field: relationOther, value: entry.relationshipOther })
      : null;
  const side = optionLabel('side', entry.side, words);
  const disorders = itemField('disorders');
  const disordersOther = itemField('disordersOther');
  const conditions =
    disorders && disordersOther ? formatAnswer(disorders, entry.disorders, words, { field: disordersOther, value: entry.disordersOther }) : null;
  return [relation ?? fallback.relationUnknown, side, conditions ?? fallback.none].filter((part): part is string => part !== null).join(' · ');
}

/** What the symbols mean, drawn as in the chart. */
function PedigreeLegend() {
  const { t } = useTranslation('staff');
  const items: { key: 'male' | 'female' | 'unknown' | 'affected' | 'proband' | 'pregnancy' | 'couple'; draw: ReactNode }[] = [
    { key: 'male', draw: <rect x={3} y={3} width={16} height={16} fill="var(--surface, #fff)" stroke="currentColor" strokeWidth={2} /> },
    { key: 'female', draw: <circle cx={11} cy={11} r={8} fill="var(--surface, #fff)" stroke="currentColor" strokeWidth={2} /> },
    { key: 'unknown', draw: <polygon points="11,1 21,11 11,21 1,11" fill="var(--surface, #fff)" stroke="currentColor" strokeWidth={2} /> },
    { key: 'affected', draw: <rect x={3} y={3} width={16} height={16} fill="currentColor" stroke="currentColor" strokeWidth={2} /> },
    {
      key: 'proband',
      draw: <path d="M 2 20 L 16 6 M 16 6 L 9 7 M 16 6 L 15 13" fill="none" stroke="currentColor" strokeWidth={2} />,
    },
    {
      key: 'pregnancy',
      draw: (
        <>
          <polygon points="11,2 20,11 11,20 2,11" fill="var(--surface, #fff)" stroke="currentColor" strokeWidth={2} />
          <text x={11} y={15} textAnchor="middle" fontSize="10" fontWeight="700" fill="currentColor">
            P
          </text>
        </>
      ),
    },
    { key: 'couple', draw: <line x1={1} y1={11} x2={21} y2={11} stroke="currentColor" strokeWidth={2} /> },
  ];
  return (
    <ul className="pedigree-legend" aria-label={t('pedigree.legend')}>
      {items.map((item) => (
        <li key={item.key}>
          <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true">
            {item.draw}
          </svg>
          {t(`pedigree.legendItem.${item.key}`)}
        </li>
      ))}
    </ul>
  );
}

/** The answers a pedigree reads, from an appointment document. */
export function familyAnswersOf(appointment: Record<string, unknown>) {
  const intake = isRecord(appointment.intake) ? appointment.intake : {};
  const pregnancy = isRecord(intake.currentPregnancy) ? intake.currentPregnancy : {};
  return { familyMembers: intake.familyMembers, patientRole: appointment.patientRole, isPregnant: pregnancy.isPregnant };
}
