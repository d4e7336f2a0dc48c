/** The `eo-server` CLI as a script sees it: exit codes, stdout, stderr. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hashKey, openDatabase } from '@eo/reference-service';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-cli-test-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [tsx, cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// One spawn of tsx per test: each takes 1-2 s on a quiet machine and up to ~10 s at load 15, so
// the bound is the spawn's own 60 s timeout plus room, never the sum of several spawns.
describe('eo-server CLI', { timeout: 90_000 }, () => {
  it('seed --scenes N fills the archive and reports on stderr only', () => {
    const r = run('seed', '--scenes', '120', '--data-dir', dataDir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/archive holds 120 scenes/);
    const db = openDatabase(path.join(dataDir, 'eo.sqlite'));
    try {
      expect(db.sqlite.prepare('SELECT count(*) AS n FROM archive_scenes').get()).toEqual({
        n: 120,
      });
    } finally {
      db.close();
    }
  });

  it('keys create prints the new key alone on stdout, stored only as a hash', () => {
    const r = run(
      'keys',
      'create',
      '--org',
      'org-demo',
      '--user',
      'usr-demo-field',
      '--data-dir',
      dataDir,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^eok_[A-Za-z0-9_-]{40}\n$/);
    const key = r.stdout.trim();
    const db = openDatabase(path.join(dataDir, 'eo.sqlite'));
    try {
      const row = db.sqlite
        .prepare('SELECT user_id FROM api_keys WHERE key_hash = ?')
        .get(hashKey(key));
      expect(row).toEqual({ user_id: 'usr-demo-field' });
      const clear = db.sqlite
        .prepare('SELECT count(*) AS n FROM api_keys WHERE key_hash = ? OR key_prefix = ?')
        .get(key, key);
      expect(clear).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('rejects a key without its user: exit code 2 and the usage text', () => {
    const r = run('keys', 'create', '--org', 'org-demo', '--data-dir', dataDir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/needs --org and --user/);
    expect(r.stderr).toMatch(/usage:/);
  });

  it('rejects an unknown command with exit code 2', () => {
    expect(run('frobnicate').status).toBe(2);
  });

  it('rejects a scene count that is not a number with exit code 2', () => {
    expect(run('seed', '--scenes', 'many', '--data-dir', dataDir).status).toBe(2);
  });

  it('rejects an organisation id that would name the data dir itself', () => {
    // The id names the organisation's delivery folder: `..` would be the data dir itself.
    const dots = run('keys', 'create', '--org', '..', '--user', 'u', '--data-dir', dataDir);
    expect(dots.status).toBe(2);
    expect(dots.stderr).toMatch(/organisation id/);
  });
});
