import { describe, expect, it } from 'vitest';
import { definition } from '../../intake/definition';
import { RELATIONS } from './family';
import { GAP, pedigreeOf, placeRow, SYMBOL, type PedigreeLayout, type PlacedPerson } from './layout';

const WOMAN = 0;
const PARTNER = 1;

/** A known family: the woman's mother (Down syndrome) and her mother's father, her older
 * brother (autism), the partner's father (cleft lip), a son (other: "epilepsy"), pregnant now. */
const known = {
  patientRole: 10,
  isPregnant: 1,
  familyMembers: [
    { side: WOMAN, relationship: 4, disorders: ['Q90'] },
    { side: WOMAN, relationship: 11, disorders: ['F89'] },
    { side: WOMAN, relationship: 5, disorders: ['F84.0'] },
    { side: PARTNER, relationship: 3, disorders: ['Q36'] },
    { side: WOMAN, relationship: 1, disorders: ['other'], disordersOther: 'epilepsy' },
    { side: WOMAN, relationship: 4, disorders: ['F89'] }, // the mother again: one person
    { side: PARTNER, relationship: 'other', relationshipOther: 'step-father', disorders: ['Q90'] },
  ],
};

const byId = (layout: PedigreeLayout, id: string): PlacedPerson => {
  const person = layout.people.find((p) => p.id === id);
  if (!person) throw new Error(`no ${id} in ${layout.people.map((p) => p.id).join(', ')}`);
  return person;
};

function overlaps(layout: PedigreeLayout): string[] {
  const found: string[] = [];
  for (const a of layout.people)
    for (const b of layout.people)
      if (a.id < b.id && a.y === b.y && Math.abs(a.x - b.x) < GAP - 0.001) found.push(`${a.id}/${b.id}`);
  return found;
}

describe('the relationship codes', () => {
  it('are placed for every code of the definition but "other", with the sex its label says', () => {
    const options = definition.options.relationship ?? [];
    for (const option of options) {
      if (option.value === definition.otherValue) continue;
      const relation = RELATIONS[option.value as number];
      expect(relation, option.label.en).toBeDefined();
      const label = option.label.en.toLowerCase();
      const male = /\b(son|father|brother|grandfather|uncle|nephew|male\))/.test(label) && !label.includes('female');
      const female = /\b(daughter|mother|sister|grandmother|aunt|niece|female\))/.test(label);
      expect(relation?.sex, label).toBe(male ? 'male' : female ? 'female' : 'unknown');
    }
  });
});

describe('placeRow', () => {
  it('keeps order and gaps, as near the wanted places as it can', () => {
    expect(placeRow([0, 100, 200], 64)).toEqual([0, 100, 200]);
    expect(placeRow([50, 50], 64)).toEqual([18, 82]);
    const placed = placeRow([10, 0, 5, 300], 64);
    for (let i = 1; i < placed.length; i += 1) expect((placed[i] ?? 0) - (placed[i - 1] ?? 0)).toBeGreaterThanOrEqual(64 - 1e-9);
  });
});

describe('the pedigree of a known family', () => {
  const layout = pedigreeOf(known);

  it('draws each person once with the standard symbol, shading the affected', () => {
    const ids = layout.people.map((p) => p.id).sort();
    expect(ids).toEqual(
      [
        'child-4',
        'partner',
        'pregnancy',
        'p-father',
        'p-mother',
        'w-father',
        'w-maternalGrandfather',
        'w-maternalGrandmother',
        'w-mother',
        'w-olderSibling-2',
        'woman',
      ].sort(),
    );
    const sexes = (sex: string) => layout.people.filter((p) => p.sex === sex).length;
    // Squares: the partner, the two fathers, the grandfather, the brother, the son.
    expect(sexes('male')).toBe(6);
    // Circles: the woman, both mothers, the grandmother.
    expect(sexes('female')).toBe(4);
    // The pregnancy's diamond.
    expect(sexes('unknown')).toBe(1);
    const affected = layout.people.filter((p) => p.disorders.length > 0 || p.disordersOther.length > 0).map((p) => p.id);
    expect(affected.sort()).toEqual(['child-4', 'p-father', 'w-maternalGrandfather', 'w-mother', 'w-olderSibling-2'].sort());
    // The mother listed twice is one person with both conditions.
    expect(byId(layout, 'w-mother').disorders).toEqual(['Q90', 'F89']);
    expect(byId(layout, 'child-4').disordersOther).toEqual(['epilepsy']);
    // Drawn to join others, not in the answers: the fathers' and grandmother's symbols.
    expect(layout.people.filter((p) => !p.reported).map((p) => p.id).sort()).toEqual(
      ['p-mother', 'w-father', 'w-maternalGrandmother'].sort(),
    );
  });

  it('puts generations on rows, oldest on top, the woman left of her partner', () => {
    const rowOf = (id: string) => byId(layout, id).y;
    expect(rowOf('w-maternalGrandfather')).toBeLessThan(rowOf('w-mother'));
    expect(rowOf('w-mother')).toBe(rowOf('w-father'));
    expect(rowOf('w-mother')).toBe(rowOf('p-father'));
    expect(rowOf('woman')).toBeGreaterThan(rowOf('w-mother'));
    expect(rowOf('woman')).toBe(rowOf('partner'));
    expect(rowOf('woman')).toBe(rowOf('w-olderSibling-2'));
    expect(rowOf('child-4')).toBeGreaterThan(rowOf('woman'));
    expect(rowOf('pregnancy')).toBe(rowOf('child-4'));
    expect(byId(layout, 'woman').x).toBeLessThan(byId(layout, 'partner').x);
    expect(byId(layout, 'w-olderSibling-2').x).toBeLessThan(byId(layout, 'woman').x);
    expect(byId(layout, 'p-father').x).toBeGreaterThan(byId(layout, 'partner').x - GAP);
    expect(layout.generations.map((g) => g.label)).toEqual(['I', 'II', 'III', 'IV']);
    expect(byId(layout, 'woman').label).toMatch(/^III-\d$/);
    expect(overlaps(layout)).toEqual([]);
  });

  it('joins partners by a line at their height and hangs children from a sibship line', () => {
    const woman = byId(layout, 'woman');
    const partner = byId(layout, 'partner');
    const couple = layout.lines.find((l) => l.kind === 'couple' && l.y1 === woman.y && l.x1 === woman.x + SYMBOL / 2);
    expect(couple).toMatchObject({ x2: partner.x - SYMBOL / 2, y2: woman.y });
    const middle = (woman.x + partner.x) / 2;
    const drop = layout.lines.find((l) => l.kind === 'descent' && l.x1 === middle && l.y1 === woman.y);
    expect(drop).toBeDefined();
    const sibship = layout.lines.find((l) => l.kind === 'sibship' && l.y1 === drop?.y2);
    const son = byId(layout, 'child-4');
    const pregnancy = byId(layout, 'pregnancy');
    expect(sibship?.x1).toBeLessThanOrEqual(Math.min(son.x, pregnancy.x));
    expect(sibship?.x2).toBeGreaterThanOrEqual(Math.max(son.x, pregnancy.x));
    // Four couples: both pairs of parents, the maternal grandparents, the woman and partner.
    expect(layout.lines.filter((l) => l.kind === 'couple')).toHaveLength(4);
  });

  it('points the arrow at the person counseled and lists what it cannot place', () => {
    expect(layout.people.filter((p) => p.proband).map((p) => p.id)).toEqual(['woman']);
    expect(byId(layout, 'pregnancy').pregnancy).toBe(true);
    expect(layout.unplaced.map((u) => u.index)).toEqual([6]);
    // The partner answering (prenatal role 11) carries the arrow.
    expect(pedigreeOf({ ...known, patientRole: 11 }).people.filter((p) => p.proband).map((p) => p.id)).toEqual(['partner']);
  });
});

describe('small and wide families', () => {
  it('draws just the couple when no one is listed and nobody is pregnant', () => {
    const layout = pedigreeOf({ familyMembers: undefined, patientRole: 90, isPregnant: 0 });
    expect(layout.people.map((p) => p.id)).toEqual(['woman', 'partner']);
    expect(layout.lines.map((l) => l.kind)).toEqual(['couple']);
    expect(layout.generations).toHaveLength(1);
  });

  it('joins cousins, nephews and uncles through people drawn with an unknown sex, without overlaps', () => {
    const layout = pedigreeOf({
      patientRole: 90,
      isPregnant: 0,
      familyMembers: [
        { side: WOMAN, relationship: 19, disorders: ['Q90'] },
        { side: WOMAN, relationship: 22, disorders: ['Q90'] },
        { side: WOMAN, relationship: 15, disorders: [] },
        { side: WOMAN, relationship: 17, disorders: ['F89'] },
        { side: WOMAN, relationship: 8, disorders: [] },
        { side: PARTNER, relationship: 14, disorders: ['F84.0'] },
        { side: PARTNER, relationship: 0, disorders: ['Q90'] },
        { side: PARTNER, relationship: 12, disorders: [] },
        { side: WOMAN, relationship: 2, disorders: [] },
      ],
    });
    const diamonds = layout.people.filter((p) => p.sex === 'unknown').map((p) => p.role);
    expect(diamonds.sort()).toEqual(['parentsSibling', 'parentsSibling', 'sibling']);
    expect(byId(layout, 'partner').disorders).toEqual(['Q90']);
    expect(overlaps(layout)).toEqual([]);
    expect(layout.generations).toHaveLength(4);
  });
});

describe('the side a parent family takes', () => {
  it("puts the mother's family outside when only it has cousins, so that they hang away from the couple", () => {
    const layout = pedigreeOf({
      patientRole: 90,
      isPregnant: 0,
      familyMembers: [
        { side: WOMAN, relationship: 21, disorders: ['Q90'] },
        { side: WOMAN, relationship: 13, disorders: ['Q36'] },
      ],
    });
    const link = byId(layout, 'w-maternal-link');
    const cousin = byId(layout, 'w-maternalCousin-0');
    expect(link.x).toBeLessThan(byId(layout, 'w-mother').x);
    expect(byId(layout, 'w-mother').x).toBeLessThan(byId(layout, 'w-father').x);
    expect(cousin.x).toBeLessThan(byId(layout, 'woman').x);
    // The link's line to the cousin leaves from under it: its number goes beside.
    expect(link.labelBeside).toBe(true);
    expect(byId(layout, 'woman').labelBeside).toBe(false);
    expect(overlaps(layout)).toEqual([]);
  });
});
