/**
 * CONTRIBUTING.md's pictures of how a call travels name source files by short paths
 * (`backend/dispatch.ts`, `features/catalog/filters.ts`). A file moved or renamed leaves the
 * picture lying; this holds every path it names to a file that exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
const SOURCE_ROOTS = ['apps', 'packages', 'tools'];

/** Every source file of the workspace (node_modules and build output left out), by its path. */
function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'out' || e.name === 'dist') continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|vue)$/.test(e.name))
        out.push(path.relative(root, p).split(path.sep).join('/'));
    }
  };
  for (const r of SOURCE_ROOTS) walk(path.join(root, r));
  return out;
}

describe('CONTRIBUTING.md', () => {
  it('names only source files that exist', () => {
    const text = fs.readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
    const named = new Set(text.match(/\b[\w.-]+(?:\/[\w.-]+)+\.(?:ts|vue)\b/g) ?? []);
    expect(named.size).toBeGreaterThan(10);
    const files = sourceFiles();
    const missing = [...named].filter((p) => !files.some((f) => f === p || f.endsWith(`/${p}`)));
    expect(missing, 'paths in CONTRIBUTING.md with no such file').toEqual([]);
  });
});
