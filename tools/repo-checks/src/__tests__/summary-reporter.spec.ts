/**
 * The suite's verdict line (`tests: N passed, N failed`, scripts/vitest-summary-reporter.ts)
 * counts a file whose hook threw as a failure: its tests are only skipped, so counting tests
 * alone read such a run as "0 failed" (a clone without the real service's document next to it
 * left Prism's 44 contract tests skipped that way).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../../../..');
const REPORTER = path.join(repo, 'scripts/vitest-summary-reporter.ts');
const VITEST = path.join(repo, 'node_modules/vitest/vitest.mjs');
let root = '';

afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = '';
});

/** Runs vitest with the reporter over `files` in a temp folder; returns its verdict line. */
function verdictOf(files: Record<string, string>): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-summary-reporter-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  fs.writeFileSync(path.join(root, 'vitest.config.mjs'), 'export default {};\n');
  const run = spawnSync(
    process.execPath,
    [VITEST, 'run', '--root', root, '--reporter=dot', `--reporter=${REPORTER}`],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  );
  const line = run.stdout.split('\n').find((l) => l.startsWith('tests: '));
  if (line === undefined) throw new Error(`no verdict line; stderr: ${run.stderr.slice(-2000)}`);
  return line;
}

const ok = "import { it } from 'vitest';\nit('ok', () => {});\n";

it('counts a file whose beforeAll threw as one failure, its tests as skipped', () => {
  const hookThrows =
    "import { beforeAll, it } from 'vitest';\n" +
    "beforeAll(() => { throw new Error('cannot start'); });\n" +
    "it('a', () => {});\nit('b', () => {});\n";
  expect(verdictOf({ 'ok.spec.ts': ok, 'hook.spec.ts': hookThrows })).toBe(
    'tests: 1 passed, 1 failed, 2 skipped',
  );
});

it('counts failed tests, and a file that does not load', () => {
  const fails = "import { it } from 'vitest';\nit('x', () => { throw new Error('no'); });\n";
  const broken = "import './missing-module';\n";
  expect(verdictOf({ 'ok.spec.ts': ok, 'fails.spec.ts': fails, 'broken.spec.ts': broken })).toBe(
    'tests: 1 passed, 2 failed',
  );
});
