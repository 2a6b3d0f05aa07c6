import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsOf, type Sources } from './test/importGraph';

// Every module of src as text, keyed like `./intake/DateField.tsx`.
const modules = import.meta.glob<string>(['./**/*.ts', './**/*.tsx'], { query: '?raw', import: 'default', eager: true });
const sources: Sources = Object.fromEntries(Object.entries(modules).map(([path, text]) => [path.slice(2), text]));

describe('import cycles', () => {
  it('client/src has none', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(importCycles(importGraph(sources))).toEqual([]);
  });

  it('finds a cycle through several modules, through an index and through a lazy import', () => {
    const graph = importGraph({
      'a/A.tsx': "import { B } from '../b/B';\n",
      'b/B.tsx': "import { c } from '../c';\nexport const B = 1;\n",
      'c/index.ts': "export * from './c';\n",
      'c/c.ts': "export const c = () => import('../a/A');\n",
      'd.ts': "import type { B } from './b/B';\nimport './b/B';\n",
      'e.ts': "import { e } from './e';\n",
    });
    expect(importCycles(graph)).toEqual(['a/A.tsx -> b/B.tsx -> c/index.ts -> c/c.ts -> a/A.tsx', 'e.ts -> e.ts']);
  });

  it('leaves out type-only statements, packages and stylesheets', () => {
    const text = [
      "import type { X } from './x';",
      "export type { Y } from './y';",
      "import { type Z, z } from './z';",
      "import { useState } from 'react';",
      "import './style.css';",
      "export const w = 'from';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./z', 'react', './style.css']);
  });
});
