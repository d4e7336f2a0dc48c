/** `eo sync --full` and the pass mode in `eo status`, in-process against the real service. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
const tmp = tempDir('cli-sync-full');
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

describe('eo sync --full', () => {
  it('re-syncs incrementally by default, in full on request; eo status says which', async () => {
    const env = { EO_URL: service.url, EO_API_KEY: service.key, EO_DB: path.join(tmp.dir, 'm.db') };
    const passes = async (argv: string[]) => {
      const r = await eo(argv, { env });
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as {
        resources: Array<{ resource: string; passMode?: string }>;
      };
      return Object.fromEntries(report.resources.map((s) => [s.resource, s.passMode]));
    };
    const resources = ['--resources', 'aois,indices,catalogs'];
    expect(await passes(['sync', ...resources])).toMatchObject({
      aois: 'full',
      indices: 'full',
      catalogs: 'full',
    });
    // Completed minutes ago: a plain sync leaves them alone, --refresh walks them incrementally.
    expect(await passes(['sync', ...resources])).toMatchObject({ aois: 'full', catalogs: 'full' });
    expect(await passes(['sync', ...resources, '--refresh'])).toMatchObject({
      aois: 'incremental',
      indices: 'full',
      catalogs: 'incremental',
    });
    expect(await passes(['status'])).toMatchObject({ catalogs: 'incremental' });
    expect(await passes(['sync', ...resources, '--full'])).toMatchObject({
      aois: 'full',
      catalogs: 'full',
    });
    const table = await eo(['status', '--format', 'table'], { env });
    expect(table.stdout).toMatch(/^RESOURCE +STATE +PASS /);
    expect(table.stdout).toMatch(/catalogs +complete +full /);
  });
});
