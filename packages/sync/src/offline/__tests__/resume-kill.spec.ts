/**
 * kill -9 of `eo download` in the middle of a site's tiles, then a new run resumes from the part
 * file. Deterministic: the relay in front of the file's host sends each tile range but its last
 * byte and then holds the connection, so the process has kept every tile of the range but the
 * last (journaled in `offline_raster_parts`) and waits for a byte that never comes; the test
 * sees the journal rows, then kills. The new run asks nothing of the download operations again,
 * fetches the header and the missing tile only, and stores a file byte-identical to the one an
 * uninterrupted take writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eo } from '../../cli/__tests__/run-eo';
import { spawnEo } from '../../cli/__tests__/spawn-eo';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import type { OfflineRaster } from '../rasters';
import { HEADER_BYTES, takeOffline } from '../take-offline';
import type { Relayed } from './relay';
import { SITE_SCENE, startOfflineService, type OfflineService } from './service';

const tmp = tempDir('resume-kill');
let svc: OfflineService;

/** About 900 m x 900 m around the scene's centre: its four tiles at full resolution. */
const AREA = {
  type: 'Feature',
  properties: { name: 'plot' },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [SITE_SCENE.lon - 0.0055, SITE_SCENE.lat - 0.004],
        [SITE_SCENE.lon + 0.0055, SITE_SCENE.lat - 0.004],
        [SITE_SCENE.lon + 0.0055, SITE_SCENE.lat + 0.004],
        [SITE_SCENE.lon - 0.0055, SITE_SCENE.lat + 0.004],
        [SITE_SCENE.lon - 0.0055, SITE_SCENE.lat - 0.004],
      ],
    ],
  },
};
const areaFile = path.join(tmp.dir, 'plot.geojson');

/** A tile range (not the header's first read): `bytes=a-b` with a > 0. */
const rangeOf = (r: Relayed) => {
  const m = /^bytes=(\d+)-(\d+)$/.exec(String(r.headers.range ?? ''));
  return m ? { start: Number(m[1]), length: Number(m[2]) - Number(m[1]) + 1 } : null;
};
const isTileRange = (r: Relayed) => (rangeOf(r)?.start ?? 0) > 0;
const sentBytes = (rs: readonly Relayed[]) => rs.reduce((s, r) => s + r.sent, 0);

beforeAll(async () => {
  svc = await startOfflineService();
  fs.writeFileSync(areaFile, JSON.stringify(AREA));
}, 240_000);
afterAll(async () => {
  await svc?.close();
  tmp.remove();
});

describe('kill -9 while the tiles arrive, then resume', { timeout: 240_000 }, () => {
  it('keeps the tiles it had, fetches only the rest, and stores the same file as an uninterrupted take', async () => {
    // The uninterrupted take, in its own mirror: the reference file and its bytes.
    const refDb = openMirrorDatabase(path.join(tmp.dir, 'reference.db'));
    const client = createEoClient({ baseUrl: svc.relay.url, apiKey: svc.key });
    let reference: OfflineRaster;
    try {
      reference = await takeOffline(
        refDb,
        {
          scene: { kind: 'catalog', id: svc.catalogIds[0]! },
          area: { geometry: AREA.geometry as never, label: 'plot.geojson' },
          resolution: 'native',
        },
        { client, serviceUrl: svc.relay.url, budgetBytes: 1e9, pollMs: 5, maxPollMs: 50 },
      );
    } finally {
      refDb.close();
    }
    expect(reference.mode).toBe('window');

    const db = path.join(tmp.dir, 'mirror.db');
    const env = { EO_URL: svc.relay.url, EO_API_KEY: svc.key, EO_DB: db };
    const sync = await eo(['sync', '--resources', 'catalogs', '--progress', 'off'], { env });
    expect(sync.code, sync.stderr).toBe(0);
    const args = ['download', svc.catalogIds[0]!, '--area', areaFile, '--format', 'json'];

    // Run 1: every tile range stops one byte short of its end.
    svc.assets.requests.length = 0;
    let held = 0;
    svc.assets.hold = (r) => {
      const range = rangeOf(r);
      if (!range || range.start === 0) return null;
      held += 1;
      return range.length - 1;
    };
    const run = spawnEo([...args, '--progress', 'lines'], env);
    // Bounded: a run that never keeps a tile is said, not waited for until the test's timeout.
    let bound: NodeJS.Timeout | undefined;
    const keptOne = await Promise.race([
      run.waitForLine((l) => /download: tiles [1-9]\d*\/\d+/.test(l)),
      new Promise<boolean>((r) => (bound = setTimeout(() => r(false), 150_000))),
    ]);
    clearTimeout(bound);
    if (!keptOne) run.child.kill('SIGKILL');
    expect(keptOne, `the first run never kept a tile:\n${run.stderr()}`).toBe(true);
    // What the kill leaves is what the journal names: at least one tile, not all.
    const journal = new Database(db, { readonly: true });
    const parts = journal.prepare('SELECT count(*) FROM offline_raster_parts').pluck().get();
    journal.close();
    expect(parts).toBeGreaterThanOrEqual(1);
    run.child.kill('SIGKILL');
    expect((await run.exited).signal).toBe('SIGKILL');
    expect(held).toBeGreaterThanOrEqual(1);
    const first = [...svc.assets.requests];
    const downloadsAfterFirst = svc.downloads();

    // Run 2: the link works again; the same command resumes.
    svc.assets.hold = null;
    svc.assets.requests.length = 0;
    const again = await eo([...args, '--progress', 'off'], { env });
    expect(again.code, again.stderr).toBe(0);
    const raster = JSON.parse(again.stdout) as OfflineRaster;
    expect(raster).toMatchObject({ state: 'stored', mode: 'window' });
    const second = [...svc.assets.requests];
    expect(svc.downloads()).toBe(downloadsAfterFirst);

    // Byte-identical to the uninterrupted take; no part file left.
    expect(fs.readFileSync(raster.file!).equals(fs.readFileSync(reference.file!))).toBe(true);
    expect(fs.readdirSync(path.dirname(raster.file!))).toEqual([path.basename(raster.file!)]);

    // The second run asked only for tiles the first did not keep: less than the window's tiles.
    const windowTiles = reference.plannedBytes! - HEADER_BYTES;
    expect(sentBytes(second.filter(isTileRange))).toBeLessThan(windowTiles);
    // Both runs together: the window's bytes, plus the header read again and one range at most.
    const oneRange = Math.max(...[...first, ...second].map((r) => rangeOf(r)?.length ?? 0));
    const total = sentBytes(first) + sentBytes(second);
    expect(total).toBeLessThanOrEqual(reference.plannedBytes! + HEADER_BYTES + oneRange);
  });
});
