/** `eo sync --archive-file` and `eo status`'s archive counts, in-process against the real service. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import type { ArchiveReport } from '../../pull/archive';
import type { ImageryReport } from '../../pull/imagery';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
const tmp = tempDir('cli-archive');

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const saved = (id: string, satellite: string, maxScenes: number) => ({
  id,
  name: `Scenes of ${satellite}`,
  search: { satellite: { collection_id: 'col-aurora-l2a', satellite_id: satellite } },
  maxScenes,
});

function file(name: string, value: unknown): string {
  const f = path.join(tmp.dir, name);
  fs.writeFileSync(f, typeof value === 'string' ? value : JSON.stringify(value));
  return f;
}

describe('eo sync --archive-file', () => {
  it('refuses a bad file before anything is touched, naming the file and the path', async () => {
    const db = path.join(tmp.dir, 'refused.db');
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const bad = file('bad.json', [saved('a', 'sat-aurora-1', 3), saved('b', 'sat-aurora-2', 5000)]);
    const r = await eo(['sync', ...flags, '--archive-file', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`invalid saved archive search in --archive-file ${bad}`);
    expect(r.stderr).toContain('archive[1].maxScenes: maxScenes must be at most 1000');

    const notJson = file('not-json.json', '{ "id": ');
    const n = await eo(['sync', ...flags, '--archive-file', notJson]);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain(`--archive-file ${notJson} is not valid JSON`);

    const dup = file('dup.json', [saved('a', 'sat-aurora-1', 3), saved('a', 'sat-aurora-2', 3)]);
    expect((await eo(['sync', ...flags, '--archive-file', dup])).stderr).toContain(
      'archive[1].id: duplicate id a',
    );
    // None of these created the database.
    expect((await eo(['status', '--db', db])).code).toBe(1);
  });

  it('keeps the scenes of the saved searches with their thumbnails; eo status counts them', async () => {
    const db = path.join(tmp.dir, 'mirror.db');
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    // One search alone (an object), then a list: the scene both list is kept once.
    const one = file('one.json', saved('aur1', 'sat-aurora-1', 3));
    const first = await eo([
      'sync',
      ...flags,
      '--resources',
      'orders',
      '--archive-file',
      one,
      '--imagery',
      'thumbnails',
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout) as { archive: ArchiveReport; imagery: ImageryReport };
    expect(out.archive).toMatchObject({ scenes: 3, dropped: 0 });
    expect(out.archive.searches).toEqual([
      expect.objectContaining({ searchId: 'aur1', state: 'complete', received: 3 }),
    ]);
    expect(out.imagery).toMatchObject({ wanted: 3, fetched: 3, failed: 0 });

    const two = file('two.json', [
      saved('aur1', 'sat-aurora-1', 4),
      saved('aur2', 'sat-aurora-2', 2),
    ]);
    const second = await eo([
      'sync',
      ...flags,
      '--resources',
      'orders',
      '--archive-file',
      two,
      '--imagery',
      'thumbnails',
      '--format',
      'table',
    ]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('archive: 2 saved searches, 6 scenes kept, 0 dropped');
    expect(second.stdout).toContain('imagery: 3 fetched');

    const status = await eo(['status', '--db', db, '--format', 'json']);
    const counts = (JSON.parse(status.stdout) as { archive: Record<string, number> }).archive;
    expect(counts).toMatchObject({ searches: 2, scenes: 6, thumbnails: 6, overviews: 0 });
    expect(counts.bytes).toBeGreaterThan(6 * 1000);
    const table = await eo(['status', '--db', db, '--format', 'table']);
    expect(table.stdout).toContain(
      `archive: 2 saved searches, 6 scenes, 6 thumbnails, 0 overviews, ${(counts.bytes! / 1e6).toFixed(1)} MB`,
    );

    // Without --archive-file the kept scenes stay.
    expect((await eo(['sync', ...flags, '--resources', 'orders'])).code).toBe(0);
    const still = await eo(['status', '--db', db, '--format', 'json']);
    expect((JSON.parse(still.stdout) as { archive: { scenes: number } }).archive.scenes).toBe(6);
  }, 60_000);
});
