/** `eo sync --imagery` and `eo status`'s imagery counts, in-process against the real service. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import type { ImageryReport } from '../../pull/imagery';
import { createEoClient } from '@eo/api-client';
import { mirrorWithIndexedAoi } from '../../pull/__tests__/index-map-fixture';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
const tmp = tempDir('cli-imagery');

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

describe('eo sync --imagery', () => {
  it('off by default; thumbnails on request; eo status counts them; a second run fetches none', async () => {
    const db = path.join(tmp.dir, 'mirror.db');
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const plain = await eo(['sync', ...flags, '--resources', 'catalogs']);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('imagery');

    const run = await eo(['sync', ...flags, '--resources', 'catalogs', '--imagery', 'thumbnails']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = (JSON.parse(run.stdout) as { imagery: ImageryReport }).imagery;
    expect(report.fetched).toBeGreaterThan(100);
    expect(report).toMatchObject({ wanted: report.fetched, failed: 0, expired: 0 });

    const status = await eo(['status', '--db', db, '--format', 'json']);
    const counts = (JSON.parse(status.stdout) as { imagery: Record<string, number> }).imagery;
    expect(counts).toEqual({
      thumbnail: report.fetched,
      overview: 0,
      indexMap: 0,
      raster: 0,
      bytes: report.fetchedBytes,
    });
    const table = await eo(['status', '--db', db, '--format', 'table']);
    expect(table.stdout).toContain(
      `imagery: ${report.fetched} thumbnails, 0 overviews, 0 index maps, 0 offline rasters, ${(report.fetchedBytes / 1e6).toFixed(1)} MB`,
    );

    const again = await eo(['sync', ...flags, '--imagery', 'thumbnails', '--format', 'table']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`imagery: 0 fetched (0.0 MB), ${report.fetched} kept`);
  }, 180_000); // the service renders every thumbnail on first request (~0.1 s each under load)

  it('index maps of mirrored visualizations: fetched, counted by eo status, kept next time', async () => {
    const db = path.join(tmp.dir, 'index-maps.db');
    const c = createEoClient({ baseUrl: service.url, apiKey: service.key });
    (await mirrorWithIndexedAoi(db, c, service)).mirror.close();
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const args = ['sync', ...flags, '--resources', 'aois', '--imagery', 'thumbnails'];
    const run = await eo([...args, '--format', 'table']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const fetched = Number(/index maps: (\d+) fetched/.exec(run.stdout)?.[1]);
    expect(fetched).toBeGreaterThan(0);
    const table = await eo(['status', '--db', db, '--format', 'table']);
    expect(table.stdout).toContain(`0 overviews, ${fetched} index maps,`);
    const again = await eo([...args, '--format', 'json']);
    const report = (JSON.parse(again.stdout) as { imagery: ImageryReport }).imagery;
    expect(report.indexMaps).toMatchObject({ fetched: 0, kept: fetched, unavailable: 0 });
  });

  it('a budget too small for everything says so on stderr; a bad choice is a usage error', async () => {
    const db = path.join(tmp.dir, 'small.db');
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const run = await eo([
      'sync',
      ...flags,
      '--resources',
      'catalogs',
      '--imagery',
      'thumbnails',
      '--imagery-budget',
      '1',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/eo: imagery: \d+ not fetched: the budget is full/);
    const counts = (
      JSON.parse((await eo(['status', '--db', db, '--format', 'json'])).stdout) as {
        imagery: { bytes: number };
      }
    ).imagery;
    expect(counts.bytes).toBeGreaterThan(0);
    expect(counts.bytes).toBeLessThanOrEqual(1_000_000);

    const bad = await eo(['sync', ...flags, '--imagery', 'all']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--imagery must be off, thumbnails, overviews');
  });
});
