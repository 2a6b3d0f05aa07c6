/**
 * Places a family (family.ts) for an SVG pedigree: one row per generation, oldest on top,
 * numbered I, II, ... with each person numbered left to right ("II-3"); partners joined by a
 * horizontal line at their symbols' height, their children hanging from a sibship line below
 * them. Pure and deterministic, unit-tested.
 *
 * Positions: each row keeps its order (the woman's side left, the partner's right) and a
 * fixed gap between symbols; children are drawn towards the middle under their parents and
 * parents over their children, a few passes each way, each row placed as close as its order
 * and gaps allow to where its people are pulled (least squares: pool-adjacent-violators).
 * Symbols never overlap and no line runs through one; where a family's lines must cross
 * another's, sibship lines of one band sit at different heights. A known limit: when cousins
 * are listed through both of the woman's (or the partner's) parents, the inner family's line
 * to its cousins crosses her own sibship and may run in line with another person's.
 */
import { readFamily, type Family, type FamilyAnswers, type Person, type UnplacedEntry } from './family';

export const SYMBOL = 30;
export const GAP = 64;
export const ROW_HEIGHT = 112;
const LEFT = 56; // room for the generation numerals
const RIGHT = 44; // room for a label beside the last symbol
const TOP = 28;
const BOTTOM = 40; // room for the numbers under the last row
const PASSES = 8;
const SIBSHIP_LEVEL = 10;

export interface PlacedPerson extends Person {
  x: number;
  y: number;
  /** "II-3": generation (Roman) and place in it. */
  label: string;
  /** Where the label goes: under the symbol, or beside it when a line leaves from below. */
  labelBeside: boolean;
}

export interface Line {
  kind: 'couple' | 'descent' | 'sibship';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface PedigreeLayout {
  width: number;
  height: number;
  people: PlacedPerson[];
  lines: Line[];
  generations: { label: string; y: number }[];
  unplaced: UnplacedEntry[];
}

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI'];

/**
 * Positions as near `wanted` as possible (least squares) keeping the order and at least `gap`
 * between neighbours: with z_i = x_i - i*gap, z must not decrease; the best z is the
 * isotonic regression of wanted_i - i*gap (pool adjacent violators).
 */
export function placeRow(wanted: readonly number[], gap: number): number[] {
  const blocks: { sum: number; count: number }[] = [];
  wanted.forEach((value, i) => {
    blocks.push({ sum: value - i * gap, count: 1 });
    for (;;) {
      const last = blocks[blocks.length - 1];
      const before = blocks[blocks.length - 2];
      if (!last || !before || before.sum / before.count <= last.sum / last.count) break;
      blocks.splice(blocks.length - 2, 2, { sum: before.sum + last.sum, count: before.count + last.count });
    }
  });
  const placed: number[] = [];
  for (const block of blocks) for (let k = 0; k < block.count; k += 1) placed.push(block.sum / block.count + placed.length * gap);
  return placed;
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function layoutFamily(family: Family): PedigreeLayout {
  const rows = family.rows.filter((row) => row.length > 0);
  const x = new Map<string, number>();
  const rowOf = new Map<string, number>();
  rows.forEach((row, r) => {
    row.forEach((id, i) => {
      x.set(id, i * GAP);
      rowOf.set(id, r);
    });
  });
  const at = (id: string) => x.get(id) ?? 0;
  const unions = family.unions.filter((u) => u.parents.every((id) => rowOf.has(id)) && u.children.every((id) => rowOf.has(id)));
  const withChildren = unions.filter((u) => u.children.length > 0);

  /** Moves each row towards where `pull` wants its people (people it does not pull stay). */
  const settle = (pull: (id: string) => number | undefined) => {
    for (const row of rows) {
      const placed = placeRow(
        row.map((id) => pull(id) ?? at(id)),
        GAP,
      );
      row.forEach((id, i) => x.set(id, placed[i] ?? 0));
    }
  };
  for (let pass = 0; pass < PASSES; pass += 1) {
    // Parents over the middle of their children...
    settle((id) => {
      const union = withChildren.find((u) => u.parents.includes(id));
      return union ? at(id) + mean(union.children.map(at)) - mean(union.parents.map(at)) : undefined;
    });
    // ...then children under the middle of their parents.
    settle((id) => {
      const union = withChildren.find((u) => u.children.includes(id));
      return union ? at(id) + mean(union.parents.map(at)) - mean(union.children.map(at)) : undefined;
    });
  }

  const all = [...x.values()];
  const shift = LEFT + SYMBOL / 2 - Math.min(...all);
  const yOf = (r: number) => TOP + SYMBOL / 2 + r * ROW_HEIGHT;
  const people: PlacedPerson[] = [];
  rows.forEach((row, r) => {
    row.forEach((id, i) => {
      const person = family.people.get(id);
      const label = `${ROMAN[r] ?? String(r + 1)}-${String(i + 1)}`;
      // A single parent's line to their children leaves from under the symbol.
      const labelBeside = withChildren.some((u) => u.parents.length === 1 && u.parents[0] === id);
      if (person) people.push({ ...person, x: at(id) + shift, y: yOf(r), label, labelBeside });
    });
  });
  const placedX = (id: string) => at(id) + shift;
  const placedY = (id: string) => yOf(rowOf.get(id) ?? 0);

  const lines: Line[] = [];
  for (const union of unions) {
    const [a, b] = union.parents.map(placedX).sort((p, q) => p - q);
    if (union.parents.length === 2 && a !== undefined && b !== undefined) {
      const y = placedY(union.parents[0] ?? '');
      lines.push({ kind: 'couple', x1: a + SYMBOL / 2, y1: y, x2: b - SYMBOL / 2, y2: y });
    }
  }
  // Sibship lines per band (between two rows), each at the first height free of the others.
  const levels = new Map<number, number[]>();
  const bands = [...withChildren].sort((u, v) => mean(u.parents.map(placedX)) - mean(v.parents.map(placedX)));
  for (const union of bands) {
    const row = rowOf.get(union.parents[0] ?? '') ?? 0;
    const parentY = yOf(row);
    const single = union.parents.length === 1;
    const dropX = mean(union.parents.map(placedX));
    const childXs = union.children.map(placedX);
    const from = Math.min(dropX, ...childXs);
    const to = Math.max(dropX, ...childXs);
    const used = levels.get(row) ?? [];
    let level = used.findIndex((end) => end < from - SYMBOL / 2);
    if (level === -1) level = used.length;
    used[level] = to;
    levels.set(row, used);
    const sibY = parentY + ROW_HEIGHT / 2 - SYMBOL / 4 + level * SIBSHIP_LEVEL;
    lines.push({ kind: 'descent', x1: dropX, y1: single ? parentY + SYMBOL / 2 : parentY, x2: dropX, y2: sibY });
    if (to > from) lines.push({ kind: 'sibship', x1: from, y1: sibY, x2: to, y2: sibY });
    for (const childX of childXs) lines.push({ kind: 'descent', x1: childX, y1: sibY, x2: childX, y2: yOf(row + 1) - SYMBOL / 2 });
  }

  return {
    width: Math.max(...people.map((p) => p.x)) + SYMBOL / 2 + RIGHT,
    height: yOf(rows.length - 1) + SYMBOL / 2 + BOTTOM,
    people,
    lines,
    generations: rows.map((_, r) => ({ label: ROMAN[r] ?? String(r + 1), y: yOf(r) })),
    unplaced: family.unplaced,
  };
}

/** The pedigree of an intake's answers. */
export function pedigreeOf(answers: FamilyAnswers): PedigreeLayout {
  return layoutFamily(readFamily(answers));
}
