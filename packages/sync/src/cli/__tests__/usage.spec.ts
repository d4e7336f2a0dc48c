/** The command line itself: help, usage errors (exit 2, usage on stderr), settings. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { applySearchFlags } from '../search-body';
import { parseCommandLine } from '../args';
import { eo } from './run-eo';

const tmp = tempDir('cli-usage');
afterAll(() => tmp.remove());

describe('usage', () => {
  it('no command: the usage on stderr, exit 2; help: on stdout, exit 0', async () => {
    const none = await eo([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^usage:\n {2}eo sync /);
    expect(none.stderr).toContain('exit codes: 0 ok, 1 operation failed, 2 usage error');
    for (const args of [['help'], ['--help'], ['-h']]) {
      const help = await eo(args);
      expect(help.code).toBe(0);
      expect(help.stdout).toBe(`${none.stderr}`);
    }
    const one = await eo(['outbox', 'flush', '--help']);
    expect(one).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^usage: eo outbox flush /),
    });
  });

  it('unknown commands, options and arguments: exit 2 with the usage', async () => {
    const unknown = await eo(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^eo: unknown command: frobnicate\nusage:/);
    const sub = await eo(['outbox', 'drain']);
    expect(sub.stderr).toContain('unknown command: outbox drain');
    const option = await eo(['sync', '--colour']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--colour'");
    const elsewhere = await eo(['status', '--db', 'x.db', '--bbox', '1,2,3,4']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toBe(
      'eo status: --bbox does not apply here\nusage: eo status [--drift] [--format json|table]\n',
    );
    const extra = await eo(['status', 'now', '--db', 'x.db']);
    expect(extra.stderr).toContain('unexpected argument: now');
    const missingId = await eo(['outbox', 'retry', '--db', 'x.db']);
    expect(missingId.stderr).toContain('missing <id>');
    const format = await eo(['status', '--db', 'x.db', '--format', 'yaml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be json or table, got "yaml"');
    const progress = await eo(['sync', '--progress', 'loud']);
    expect(progress.stderr).toContain('--progress must be auto, lines or off, got "loud"');
  });

  it('the database comes from --db or EO_DB, relative to the working directory', async () => {
    const noDb = await eo(['status']);
    expect(noDb.code).toBe(2);
    expect(noDb.stderr).toContain('no database: pass --db PATH or set EO_DB');
    const queued = await eo(
      ['outbox', 'add', 'job', '--json', '{"workflow_id":"wf-1","project_id":"prj-demo-crops"}'],
      {
        env: { EO_DB: 'field.db' },
        cwd: tmp.dir,
      },
    );
    expect(queued.code).toBe(0);
    expect(fs.existsSync(path.join(tmp.dir, 'field.db'))).toBe(true);
    // The flag wins over the environment.
    const listed = await eo(['outbox', 'list', '--db', path.join(tmp.dir, 'field.db')], {
      env: { EO_DB: path.join(tmp.dir, 'elsewhere.db') },
    });
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
  });

  it('the service profile comes from --dialect or EO_DIALECT, and a wrong one names the choices', async () => {
    const env = { EO_URL: 'http://127.0.0.1:9', EO_API_KEY: 'k', EO_DB: 'd.db' };
    const bad = await eo(['outbox', 'flush', '--dialect', 'v9'], { env, cwd: tmp.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "eo outbox flush: --dialect: unknown service dialect 'v9': use spec or provider-v0",
    );
    const fromEnv = await eo(['outbox', 'flush'], {
      env: { ...env, EO_DIALECT: 'provider' },
      cwd: tmp.dir,
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain("EO_DIALECT: unknown service dialect 'provider'");
    // Commands that never reach the service take it too (a script passes the same settings).
    const offline = await eo(
      [
        'outbox',
        'add',
        'job',
        '--dialect',
        'provider-v0',
        '--json',
        '{"workflow_id":"w","project_id":"p"}',
      ],
      { env, cwd: tmp.dir },
    );
    expect(offline.stderr).toBe('');
    expect(offline.code).toBe(0);
  });

  it('parses each flag into the search body field it stands for', () => {
    const { values } = parseCommandLine([
      '--bbox=-10.5,40,-5,45',
      '--collections',
      'a, b',
      '--sort',
      'datetime',
      '--sort',
      'eo:cloud_cover:DESC,view:off_nadir:asc',
    ]);
    expect(applySearchFlags({ query: { gsd: { lt: 4 } }, limit: 9 }, values)).toEqual({
      bbox: [-10.5, 40, -5, 45],
      collections: ['a', 'b'],
      query: { gsd: { lt: 4 } },
      limit: 9,
      sort_by: [
        { field: 'datetime', direction: 'asc' },
        { field: 'eo:cloud_cover', direction: 'desc' },
        { field: 'view:off_nadir', direction: 'asc' },
      ],
    });
  });
});
