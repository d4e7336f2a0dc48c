/**
 * No import loops: none at run time in any package or app (a loop makes module order matter
 * and initialisation fragile), and none at all in the desktop renderer, whose folders are
 * slices and layers (issue 28; `import type` counted too, as the one loop it had was one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, sourceFilesIn } from '../import-cycles';

const root = path.resolve(import.meta.dirname, '../../../..');
const rel = (cycles: string[][]) => cycles.map((c) => c.map((f) => path.relative(root, f)));

const SOURCE_DIRS = ['apps', 'packages', 'tools'].flatMap((top) =>
  fs
    .readdirSync(path.join(root, top), { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, top, e.name, 'src')))
    .map((e) => path.join(root, top, e.name, 'src')),
);

describe('import loops', () => {
  it('finds a loop when there is one, type-only or not (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-cycles-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
      fs.writeFileSync(
        path.join(dir, 'b.ts'),
        "import type { C } from './c';\nexport const b = 1;\n",
      );
      fs.writeFileSync(
        path.join(dir, 'c.ts'),
        "export {\n  a,\n} from './a';\nexport type C = number;\n",
      );
      fs.writeFileSync(path.join(dir, 'd.ts'), "export const d = () => import('./a');\n");
      const files = sourceFilesIn(dir);
      expect(importCycles(importGraph(files, { typeOnly: false }))).toEqual([]);
      const loops = importCycles(importGraph(files, { typeOnly: true }));
      expect(loops.map((c) => c.map((f) => path.basename(f)))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads every source folder', () => {
    expect(SOURCE_DIRS.map((d) => path.relative(root, d))).toEqual(
      expect.arrayContaining(['apps/desktop/src', 'packages/sync/src', 'packages/domain/src']),
    );
  });

  it.each(SOURCE_DIRS.map((d) => [path.relative(root, d), d]))(
    '%s: no loop at run time',
    (_name, dir) => {
      expect(rel(importCycles(importGraph(sourceFilesIn(dir), { typeOnly: false })))).toEqual([]);
    },
  );

  it('the desktop renderer: no loop at all, type-only imports counted', () => {
    const dir = path.join(root, 'apps/desktop/src/renderer');
    const files = sourceFilesIn(dir);
    expect(files.length).toBeGreaterThan(100);
    expect(rel(importCycles(importGraph(files, { typeOnly: true })))).toEqual([]);
  });
});
