/**
 * The client's import graph, read from the sources as text (madge-like), and its cycles.
 * Used by `src/importCycles.test.ts`, the check that no module of client/src imports itself
 * through others (no eslint import plugin is installed, so the rule is a test).
 */

/** Module path (relative to src, e.g. `intake/DateField.tsx`) -> source text. */
export type Sources = Record<string, string>;

// `import x from '…'`, `import {a} from '…'`, `export * from '…'`, `export {a} from '…'`,
// `import '…'` and `import('…')`; a statement that is `import type` / `export type` is left
// out: it is erased from the build and cannot make a module wait for another.
const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function join(from: string, specifier: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** The module a relative specifier names, or null (a package, a stylesheet, JSON, outside src). */
export function resolveImport(sources: Sources, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(from, specifier);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (candidate in sources) return candidate;
  }
  return null;
}

/** The relative specifiers a module imports at run time (type-only statements left out). */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(STATIC)) {
    const [, keyword, typeOnly, clause, specifier] = match;
    if (typeOnly !== undefined || specifier === undefined) continue;
    // `export const x = …` and other declarations have no `from` and are not imports.
    if (keyword === 'export' && clause === undefined) continue;
    found.push(specifier);
  }
  for (const match of source.matchAll(DYNAMIC)) {
    if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

/** Module -> the modules of `sources` it imports. */
export function importGraph(sources: Sources): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [path, source] of Object.entries(sources)) {
    const targets = importsOf(source)
      .map((specifier) => resolveImport(sources, path, specifier))
      .filter((target): target is string => target !== null);
    graph.set(path, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * Every import cycle, one per strongly connected group of modules (Tarjan), written as the
 * modules of one loop through it, `a.ts -> b.ts -> a.ts`, and the group's other modules.
 */
export function importCycles(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;

  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      const selfImport = group.length === 1 && (graph.get(node) ?? []).includes(node);
      if (group.length > 1 || selfImport) groups.push(group);
    }
  };
  for (const node of [...graph.keys()].sort()) {
    if (!index.has(node)) visit(node);
  }
  return groups.map((group) => {
    const loop = loopThrough(graph, new Set(group));
    const others = group.filter((member) => !loop.split(' -> ').includes(member)).sort();
    return others.length > 0 ? `${loop} (in one group with ${others.join(', ')})` : loop;
  });
}

/** One loop through a strongly connected group, from its first module (by name) back to it. */
function loopThrough(graph: Map<string, string[]>, group: Set<string>): string {
  const start = [...group].sort()[0] ?? '';
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() ?? '';
    for (const next of graph.get(node) ?? []) {
      if (!group.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] ?? '') ?? start);
        return [...path, start].join(' -> ');
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...group].join(' -> ');
}
