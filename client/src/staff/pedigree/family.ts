/**
 * The family of an intake, read for a pedigree drawing: the couple (the woman and her
 * partner), the relatives of the family step (`intake.familyMembers`: whose side, the
 * relationship code, the conditions), and the people a pedigree needs to join them (a
 * relative's parents, say), ordered by generation from the woman's side (left) to the
 * partner's (right). Pure: layout.ts places what this returns.
 *
 * The relationship codes are the definition's (realtime/intake/definition.json, option list
 * `relationship`); what each means in a family tree (generation, sex, through whom) is
 * written once here, in RELATIONS.
 */
import { definition, OTHER, type OptionValue } from '../../intake/definition';
import { isRecord } from '../../isRecord';

export type Sex = 'male' | 'female' | 'unknown';
export type Side = 'woman' | 'partner';

/** Where a relative sits in the tree, seen from the woman or the partner (their side). */
type Slot =
  | 'self'
  | 'child'
  | 'father'
  | 'mother'
  | 'paternalGrandfather'
  | 'paternalGrandmother'
  | 'maternalGrandfather'
  | 'maternalGrandmother'
  | 'olderSibling'
  | 'youngerSibling'
  | 'paternalUncleOrAunt'
  | 'maternalUncleOrAunt'
  | 'nephewOrNiece'
  | 'paternalCousin'
  | 'maternalCousin';

/** Relationship code -> its place and sex (codes of docs/product.md "Enumerations"). */
export const RELATIONS: Readonly<Record<number, { slot: Slot; sex: Sex }>> = {
  0: { slot: 'self', sex: 'unknown' },
  1: { slot: 'child', sex: 'male' },
  2: { slot: 'child', sex: 'female' },
  3: { slot: 'father', sex: 'male' },
  4: { slot: 'mother', sex: 'female' },
  5: { slot: 'olderSibling', sex: 'male' },
  6: { slot: 'youngerSibling', sex: 'male' },
  7: { slot: 'olderSibling', sex: 'female' },
  8: { slot: 'youngerSibling', sex: 'female' },
  9: { slot: 'paternalGrandfather', sex: 'male' },
  10: { slot: 'paternalGrandmother', sex: 'female' },
  11: { slot: 'maternalGrandfather', sex: 'male' },
  12: { slot: 'maternalGrandmother', sex: 'female' },
  13: { slot: 'paternalUncleOrAunt', sex: 'male' },
  14: { slot: 'paternalUncleOrAunt', sex: 'female' },
  15: { slot: 'maternalUncleOrAunt', sex: 'male' },
  16: { slot: 'maternalUncleOrAunt', sex: 'female' },
  17: { slot: 'nephewOrNiece', sex: 'male' },
  18: { slot: 'nephewOrNiece', sex: 'female' },
  19: { slot: 'paternalCousin', sex: 'male' },
  20: { slot: 'paternalCousin', sex: 'female' },
  21: { slot: 'maternalCousin', sex: 'male' },
  22: { slot: 'maternalCousin', sex: 'female' },
};

/**
 * Who a person is, for their label: the woman, the partner, the pregnancy, a relative named
 * by a relationship code, or a person drawn only to join relatives (not in the intake).
 */
export type Role = 'woman' | 'partner' | 'pregnancy' | 'relative' | 'sibling' | 'parentsSibling';

export interface Person {
  id: string;
  role: Role;
  /** Whose family (null: the couple themselves' children and pregnancy). */
  side: Side | null;
  sex: Sex;
  /** The definition's relationship code of a relative the intake lists (else null). */
  relationship: OptionValue | null;
  /** Condition codes (option list `conditions`) and the free-text "other" conditions. */
  disorders: OptionValue[];
  disordersOther: string[];
  /** Listed in the intake (or the couple); false: drawn only to join others. */
  reported: boolean;
  /** The person the counseling is for (the consultand): the arrow. */
  proband: boolean;
  /** The questionnaire does not ask; kept for a later definition that does. */
  deceased: boolean;
  pregnancy: boolean;
}

export function isAffected(person: Person): boolean {
  return person.disorders.length > 0 || person.disordersOther.length > 0;
}

/** Parents (one or two, in drawing order) and their children, left to right. */
export interface Union {
  id: string;
  parents: string[];
  children: string[];
}

/** A family-step entry the tree cannot place (relationship "other" or not given). */
export interface UnplacedEntry {
  index: number;
  entry: Record<string, unknown>;
}

export interface Family {
  people: Map<string, Person>;
  /** Generations, oldest first; each left (woman's side) to right (partner's side). */
  rows: string[][];
  unions: Union[];
  unplaced: UnplacedEntry[];
}

interface Entry {
  index: number;
  side: Side;
  slot: Slot;
  sex: Sex;
  code: OptionValue;
  disorders: OptionValue[];
  disordersOther: string[];
}

function textEntries(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(/[,，、]/)
        .map((part) => part.trim())
        .filter((part) => part !== '')
    : [];
}

function readEntries(value: unknown): { placed: Entry[]; unplaced: UnplacedEntry[] } {
  const placed: Entry[] = [];
  const unplaced: UnplacedEntry[] = [];
  (Array.isArray(value) ? (value as unknown[]) : []).forEach((raw, index) => {
    if (!isRecord(raw)) return;
    const code = raw.relationship;
    const relation = typeof code === 'number' ? RELATIONS[code] : undefined;
    const side: Side | null = raw.side === 0 ? 'woman' : raw.side === 1 ? 'partner' : null;
    // A child is the couple's whichever side was chosen.
    if (relation === undefined || code === OTHER || (side === null && relation.slot !== 'child')) {
      unplaced.push({ index, entry: raw });
      return;
    }
    const disorders = Array.isArray(raw.disorders)
      ? (raw.disorders as unknown[]).filter((d): d is OptionValue => typeof d === 'number' || typeof d === 'string')
      : [];
    placed.push({
      index,
      side: side ?? 'woman',
      slot: relation.slot,
      sex: relation.sex,
      code: code as number,
      disorders: disorders.filter((d) => d !== OTHER),
      disordersOther: textEntries(raw.disordersOther),
    });
  });
  return { placed, unplaced };
}

/**
 * Which of the couple answered as the patient (`patientRole`): in each of the definition's
 * role lists the first option is the woman and the second her partner; anyone else answering
 * (the third, "other") leaves the arrow with the woman.
 */
function probandSide(role: unknown): Side {
  const field = definition.steps.flatMap((step) => step.fields).find((candidate) => candidate.path === 'patientRole');
  const lists = typeof field?.options === 'object' ? Object.values(field.options) : [];
  return lists.some((name) => definition.options[name]?.[1]?.value === role) ? 'partner' : 'woman';
}

function blank(id: string, role: Role, side: Side | null, sex: Sex): Person {
  return {
    id,
    role,
    side,
    sex,
    relationship: null,
    disorders: [],
    disordersOther: [],
    reported: false,
    proband: false,
    deceased: false,
    pregnancy: false,
  };
}

function addTo(person: Person, entry: Entry): void {
  person.reported = true;
  for (const code of entry.disorders) if (!person.disorders.includes(code)) person.disorders.push(code);
  for (const text of entry.disordersOther) if (!person.disordersOther.includes(text)) person.disordersOther.push(text);
}

/** One side's generations (outer to inner: the woman's from the left, the partner's from the right). */
interface SideBlock {
  rows: [string[], string[], string[], string[]];
}

function buildSide(side: Side, ego: Person, entries: Entry[], people: Map<string, Person>, unions: Union[]): SideBlock {
  const prefix = side === 'woman' ? 'w' : 'p';
  const of = (slot: Slot) => entries.filter((entry) => entry.slot === slot);
  const add = (person: Person): Person => {
    people.set(person.id, person);
    return person;
  };
  /** A relative who is one person however often listed (a parent, a grandparent), drawn
   * also when not listed if others hang from them. */
  const single = (slot: Slot, sex: Sex, code: number): Person => {
    const person = add(blank(`${prefix}-${slot}`, 'relative', side, sex));
    person.relationship = code;
    for (const entry of of(slot)) addTo(person, entry);
    return person;
  };
  /** Relatives who may be several people: one per entry. */
  const each = (slot: Slot): Person[] =>
    of(slot).map((entry) => {
      const person = add(blank(`${prefix}-${slot}-${String(entry.index)}`, 'relative', side, entry.sex));
      person.relationship = entry.code;
      addTo(person, entry);
      return person;
    });

  for (const entry of of('self')) addTo(ego, entry);
  const siblings = [...each('olderSibling'), ...each('youngerSibling')];
  const nephews = each('nephewOrNiece');
  const paternalSiblings = each('paternalUncleOrAunt');
  const maternalSiblings = each('maternalUncleOrAunt');
  const paternalCousins = each('paternalCousin');
  const maternalCousins = each('maternalCousin');
  const needPaternal =
    of('paternalGrandfather').length + of('paternalGrandmother').length + paternalSiblings.length + paternalCousins.length > 0;
  const needMaternal =
    of('maternalGrandfather').length + of('maternalGrandmother').length + maternalSiblings.length + maternalCousins.length > 0;
  const needParents =
    needPaternal || needMaternal || siblings.length + nephews.length + of('father').length + of('mother').length > 0;
  const rows: SideBlock['rows'] = [[], [], [], []];
  if (!needParents) {
    rows[2] = [ego.id];
    return { rows };
  }
  const father = single('father', 'male', 3);
  const mother = single('mother', 'female', 4);
  // A sibling (sex unknown) joins nephews and nieces; an uncle or aunt joins cousins.
  const nephewParent = nephews.length > 0 ? add(blank(`${prefix}-sibling`, 'sibling', side, 'unknown')) : null;
  const paternalLink = paternalCousins.length > 0 ? add(blank(`${prefix}-paternal-link`, 'parentsSibling', side, 'unknown')) : null;
  const maternalLink = maternalCousins.length > 0 ? add(blank(`${prefix}-maternal-link`, 'parentsSibling', side, 'unknown')) : null;
  const ids = (list: (Person | null)[]) => list.filter((p): p is Person => p !== null).map((p) => p.id);

  const ownSibship = ids([nephewParent, ...siblings, ego]);
  unions.push({ id: `${prefix}-parents`, parents: [father.id, mother.id], children: ownSibship });
  if (nephewParent) unions.push({ id: `${prefix}-sibling`, parents: [nephewParent.id], children: ids(nephews) });
  if (paternalLink) unions.push({ id: `${prefix}-paternal-link`, parents: [paternalLink.id], children: ids(paternalCousins) });
  if (maternalLink) unions.push({ id: `${prefix}-maternal-link`, parents: [maternalLink.id], children: ids(maternalCousins) });
  // One parent's family goes on the outer side, the other's between them and the partner's
  // side: the outer one is the father's, unless only the mother's has cousins (cousins hang
  // under their parent's sibship, and inner ones would land among the couple's own lines).
  const motherOuter = maternalCousins.length > 0 && paternalCousins.length === 0;
  const paternalRow = ids([paternalLink, ...paternalSiblings, father]);
  const maternalRow = ids([mother, ...maternalSiblings, maternalLink]);
  const grandparents: string[][] = [];
  if (needPaternal) {
    const grandfather = single('paternalGrandfather', 'male', 9);
    const grandmother = single('paternalGrandmother', 'female', 10);
    grandparents.push([grandfather.id, grandmother.id]);
    unions.push({ id: `${prefix}-paternal`, parents: [grandfather.id, grandmother.id], children: paternalRow });
  }
  if (needMaternal) {
    const grandfather = single('maternalGrandfather', 'male', 11);
    const grandmother = single('maternalGrandmother', 'female', 12);
    grandparents.push([grandfather.id, grandmother.id]);
    unions.push({ id: `${prefix}-maternal`, parents: [grandfather.id, grandmother.id], children: maternalRow });
  }
  if (motherOuter) {
    rows[0] = grandparents.reverse().flat();
    rows[1] = [...[...maternalRow].reverse(), ...[...paternalRow].reverse()];
    rows[2] = [...ids([...maternalCousins, ...paternalCousins]), ...ownSibship];
  } else {
    rows[0] = grandparents.flat();
    rows[1] = [...paternalRow, ...maternalRow];
    rows[2] = [...ids([...paternalCousins, ...maternalCousins]), ...ownSibship];
  }
  rows[3] = ids(nephews);
  return { rows };
}

/** The answers that matter: `intake.familyMembers`, `patientRole`, `intake.currentPregnancy.isPregnant`. */
export interface FamilyAnswers {
  familyMembers: unknown;
  patientRole: unknown;
  isPregnant: unknown;
}

export function readFamily({ familyMembers, patientRole, isPregnant }: FamilyAnswers): Family {
  const people = new Map<string, Person>();
  const unions: Union[] = [];
  const { placed, unplaced } = readEntries(familyMembers);
  const woman = blank('woman', 'woman', 'woman', 'female');
  // The definition speaks of "the man" beside the woman (its fertility step); unknown would
  // be a diamond, which reads as a child's symbol next to a couple.
  const partner = blank('partner', 'partner', 'partner', 'male');
  woman.reported = partner.reported = true;
  (probandSide(patientRole) === 'partner' ? partner : woman).proband = true;
  people.set(woman.id, woman);
  people.set(partner.id, partner);

  const left = buildSide('woman', woman, placed.filter((e) => e.side === 'woman' && e.slot !== 'child'), people, unions);
  const right = buildSide('partner', partner, placed.filter((e) => e.side === 'partner' && e.slot !== 'child'), people, unions);

  const children = placed
    .filter((entry) => entry.slot === 'child')
    .map((entry) => {
      const child = blank(`child-${String(entry.index)}`, 'relative', null, entry.sex);
      child.relationship = entry.code;
      addTo(child, entry);
      people.set(child.id, child);
      return child.id;
    });
  if (isPregnant === 1) {
    const pregnancy = blank('pregnancy', 'pregnancy', null, 'unknown');
    pregnancy.pregnancy = true;
    pregnancy.reported = true;
    people.set(pregnancy.id, pregnancy);
    children.push(pregnancy.id);
  }
  unions.push({ id: 'couple', parents: [woman.id, partner.id], children });

  const rows = [0, 1, 2, 3].map((g) => {
    const middle = g === 3 ? children : [];
    return [...(left.rows[g] ?? []), ...middle, ...[...(right.rows[g] ?? [])].reverse()];
  });
  return { people, rows, unions, unplaced };
}
