/**
 * CONTRIBUTING.md's pictures of how a call travels name source files by short paths
 * (`backend/dispatch.ts`, `stores/catalog-filters.ts`), and every README names the files that
 * hold what it describes. A file moved or renamed leaves the text lying; this holds every path
 * they name to a file that exists.
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

/** The repository's READMEs and docs: the root's and those under apps, packages and tools. */
function markdownFiles(): string[] {
  const out = fs.readdirSync(root).filter((n) => n.endsWith('.md'));
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'out' || e.name === 'dist') continue;
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  for (const r of SOURCE_ROOTS) walk(r);
  return out;
}

/**
 * Source files a text names in backticks: `src/x.ts` as a path suffix, `x.spec.ts` as a file
 * name. Patterns (`<area>.ts`, `*.spec.ts`) name no one file and are left out.
 */
function namedSourceFiles(text: string): string[] {
  const named = [...text.matchAll(/`([^`\s]+\.(?:ts|vue))`/g)].map((m) =>
    m[1]!.replace(/^\.\//, ''),
  );
  return [...new Set(named.filter((n) => !/[<>*]/.test(n)))];
}

/** A path names the file it ends; a bare name, any file of that name. */
const exists = (files: string[], named: string): boolean =>
  files.some((f) => f === named || f.endsWith(`/${named}`));

describe('the READMEs', () => {
  it('name in backticks only source files that exist', () => {
    const files = sourceFiles();
    const docs = markdownFiles();
    expect(docs.length).toBeGreaterThan(5);
    const missing = docs.flatMap((doc) =>
      namedSourceFiles(fs.readFileSync(path.join(root, doc), 'utf8'))
        .filter((n) => !exists(files, n))
        .map((n) => `${doc}: ${n}`),
    );
    expect(missing, 'files named by a README that do not exist').toEqual([]);
  });

  it('reads a path, a bare file name, and leaves patterns out', () => {
    expect(
      namedSourceFiles('see `src/a.ts`, `./b.vue`, `c.spec.ts`, `<area>.ts`, `*.spec.ts`'),
    ).toEqual(['src/a.ts', 'b.vue', 'c.spec.ts']);
  });
});

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
