/**
 * `npm start` rebuilds the desktop app only when a source of its bundles changed
 * (scripts/desktop-build-stamp.mjs): by content, so a touched file, a test or a README does not
 * cost a rebuild, and any real change does.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildIsFresh,
  sourcesDigest,
  STAMP,
  writeStamp,
} from '../../../../scripts/desktop-build-stamp.mjs';

const SCRIPT = path.resolve(__dirname, '../../../../scripts/desktop-build-stamp.mjs');
let root = '';

afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = '';
});

/** A workspace with the inputs' shape and a built out/ folder. */
function workspace(): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-build-stamp-'));
  const files: Record<string, string> = {
    'pnpm-lock.yaml': 'lockfileVersion: 9.0\n',
    'apps/desktop/package.json': '{"name":"@eo/desktop"}',
    'apps/desktop/electron.vite.config.ts': 'export default {};\n',
    'apps/desktop/src/renderer/App.vue': '<template><main /></template>\n',
    'apps/desktop/src/renderer/__tests__/app.spec.ts': 'test\n',
    'apps/desktop/src/e2e/harness.ts': 'export {};\n',
    'apps/desktop/README.md': '# desktop\n',
    'packages/reference-service/src/app.ts': 'export const app = 1;\n',
    'packages/reference-service/drizzle/0000_init.sql': 'CREATE TABLE t (a);\n',
    'packages/domain/src/index.ts': 'export const LIMIT = 1;\n',
    'packages/domain/node_modules/zod/index.js': 'module.exports = {};\n',
    'packages/formats/bench/import.ts': 'export {};\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  fs.mkdirSync(path.join(root, 'apps/desktop/out'), { recursive: true });
  return root;
}

const edit = (rel: string, text: string) => fs.writeFileSync(path.join(root, rel), text);

describe('desktop build stamp', () => {
  it('a build with no stamp is stale; after writing it, fresh', () => {
    const ws = workspace();
    expect(buildIsFresh(ws)).toBe(false);
    writeStamp(ws);
    expect(fs.existsSync(path.join(ws, STAMP))).toBe(true);
    expect(buildIsFresh(ws)).toBe(true);
  });

  it('a changed source, migration, lockfile or package makes it stale', () => {
    for (const [rel, text] of [
      ['apps/desktop/src/renderer/App.vue', '<template><main>x</main></template>\n'],
      ['packages/reference-service/drizzle/0000_init.sql', 'CREATE TABLE t (a, b);\n'],
      ['pnpm-lock.yaml', 'lockfileVersion: 9.1\n'],
      ['packages/domain/src/index.ts', 'export const LIMIT = 2;\n'],
    ] as const) {
      const ws = workspace();
      writeStamp(ws);
      edit(rel, text);
      expect(buildIsFresh(ws), rel).toBe(false);
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it('a new source file makes it stale', () => {
    const ws = workspace();
    writeStamp(ws);
    edit('apps/desktop/src/renderer/New.vue', '<template />\n');
    expect(buildIsFresh(ws)).toBe(false);
  });

  it('tests, e2e, benches, READMEs, node_modules and a touched file do not', () => {
    const ws = workspace();
    writeStamp(ws);
    const before = sourcesDigest(ws);
    edit('apps/desktop/src/renderer/__tests__/app.spec.ts', 'changed\n');
    edit('apps/desktop/src/e2e/harness.ts', 'export const changed = 1;\n');
    edit('apps/desktop/README.md', '# changed\n');
    edit('packages/domain/node_modules/zod/index.js', 'changed\n');
    edit('packages/formats/bench/import.ts', 'export const changed = 1;\n');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(ws, 'packages/domain/src/index.ts'), later, later);
    expect(sourcesDigest(ws)).toBe(before);
    expect(buildIsFresh(ws)).toBe(true);
  });

  it('a source edited while the build ran makes the next start rebuild (the digest is taken before)', () => {
    const ws = workspace();
    const before = sourcesDigest(ws);
    edit('apps/desktop/src/renderer/App.vue', '<template><main>during</main></template>\n');
    writeStamp(ws, before);
    expect(buildIsFresh(ws)).toBe(false);
  });

  it('the command line: fresh exits 0 or 1, digest prints one, write wants one, else 2', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
    // The repository's own build may or may not be fresh: either answer is a valid exit code.
    expect([0, 1]).toContain(run('fresh').status);
    expect(run('digest').stdout.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(run('write').status).toBe(2);
    expect(run('write', 'not-a-digest').status).toBe(2);
    expect(run('nonsense').status).toBe(2);
  });
});
