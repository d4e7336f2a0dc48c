/**
 * The real `eo` process (a bounded number of spawns: each costs a Node start and the tsx
 * transform on 2 cores): exit codes, what goes to stdout and stderr when neither is a terminal,
 * and Ctrl-C stopping a sync that the next one resumes.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';
import { spawnEo } from './spawn-eo';

let service: TestService;
const tmp = tempDir('cli-process');
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

describe('the eo process', () => {
  it('no command: exit 2, the usage on stderr, nothing on stdout', async () => {
    const p = spawnEo([], {});
    expect(await p.exited).toEqual({ code: 2, signal: null });
    expect(p.stdout()).toBe('');
    expect(p.stderr()).toMatch(/^usage:\n {2}eo sync /);
  });

  it('sync from the environment: JSON on stdout, stderr silent, the key nowhere; Ctrl-C stops it resumably', async () => {
    const db = path.join(tmp.dir, 'mirror.db');
    const env = { EO_URL: service.url, EO_API_KEY: service.key, EO_DB: db };
    // Small batches, so that a commit (and its progress line) comes early.
    const args = ['sync', '--resources', 'catalogs', '--page-size', '20', '--batch-records', '20'];
    const interrupted = spawnEo([...args, '--progress', 'lines'], env);
    expect(await interrupted.waitForLine((l) => /^catalogs \d+\/\d+$/.test(l))).toBe(true);
    interrupted.child.kill('SIGINT');
    expect(await interrupted.exited).toEqual({ code: 1, signal: null });
    expect(interrupted.stderr()).toMatch(/eo sync: catalogs failed \(abort\)/);
    const status = await eo(['status', '--db', db]);
    const catalogs = (
      JSON.parse(status.stdout) as { resources: Array<Record<string, unknown>> }
    ).resources.find((r) => r.resource === 'catalogs')!;
    expect(catalogs).toMatchObject({ state: 'unfinished', lastError: { kind: 'abort' } });
    expect(catalogs.checkpoint).toBeGreaterThan(0);

    const resumed = spawnEo(args, env);
    expect(await resumed.exited).toEqual({ code: 0, signal: null });
    expect(resumed.stderr()).toBe('');
    const report = JSON.parse(resumed.stdout()) as { resources: Array<Record<string, unknown>> };
    expect(report.resources).toEqual([
      expect.objectContaining({ resource: 'catalogs', state: 'complete', passId: catalogs.passId }),
    ]);
    for (const p of [interrupted, resumed])
      expect(p.stdout() + p.stderr()).not.toContain(service.key);
  });
});
