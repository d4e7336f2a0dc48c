/**
 * Packing what a sync stored as text (`packing.ts`): the mirror's catalog writer stores records
 * as their text, and a packing run packs them in batches with the event loop free between
 * them, stops at a batch boundary when its signal aborts or a sync starts, shares a running
 * run, and every record reads the same text before, during and after.
 */
import path from 'node:path';
import {
  COMPACT_LAYOUT,
  makeCatalogRecordReader,
  storedText,
  type CatalogRecordOut,
} from '@eo/catalog-store';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeRecordPacking } from '../packing';
import { MIRROR_ORG } from '../rows';
import { makeMirrorWriters } from '../writers';

const tmp = tempDir('packing');
const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});

const N = 40;
const records = Array.from(
  { length: N },
  (_, i) =>
    ({
      id: `rec-${i}`,
      details: {
        id: `item-${i}`,
        stac_extensions: ['https://stac-extensions.github.io/eo/v1.1.0/schema.json'],
        properties: {
          datetime: '2024-05-01T10:00:00Z',
          'eo:cloud_cover': i,
          gsd: 0.5,
          // The zone's WKT, as real records carry it: ~2 kB a record as text, once packed.
          'proj:wkt2': `PROJCRS["WGS 84 / UTM zone 33N",${'PARAMETER["x",0],'.repeat(110)}ID["EPSG",32633]]`,
        },
      },
      created_at: '2024-05-01T10:00:00.000000Z',
    }) as unknown as CatalogRecordOut,
);
const reader = makeCatalogRecordReader(db.sqlite, COMPACT_LAYOUT);
const blobs = db.sqlite.prepare('SELECT record FROM catalog_records ORDER BY seq').pluck();
const storedCount = () => (blobs.all() as Buffer[]).filter((b) => storedText(b) !== null).length;
const readsTheSame = () =>
  records.every((r) => reader.byId(MIRROR_ORG, r.id as string) === JSON.stringify(r));

let syncing = false;
const packing = makeRecordPacking(db.sqlite, () => syncing);

describe('packing the records a sync stored as text', () => {
  beforeEach(() => {
    syncing = false;
    db.sqlite.exec('DELETE FROM catalog_records; DELETE FROM catalog_unpacked');
    makeMirrorWriters(db.sqlite).catalogs.write(records, 'pass-1');
  });

  it('the sync stores text; a run packs it all in batches, the loop free between them', async () => {
    const pages = () => db.sqlite.pragma('page_count', { simple: true }) as number;
    const asText = pages();
    expect(storedCount()).toBe(N);
    expect(packing.left()).toBe(N);
    expect(readsTheSame()).toBe(true);
    const seen: number[] = [];
    let ranBetween: boolean | undefined;
    const done = await packing.pack({
      batch: 7,
      onProgress: (p) => {
        seen.push(p.left);
        // Queued after the first batch: runs before the second if the run yields in between.
        if (seen.length === 1) setImmediate(() => (ranBetween = seen.length === 1));
        expect(readsTheSame()).toBe(true);
      },
    });
    expect(done).toEqual({ packed: N, left: 0 });
    expect(seen).toEqual([33, 26, 19, 12, 5, 0]);
    expect(ranBetween).toBe(true);
    expect(storedCount()).toBe(0);
    expect(readsTheSame()).toBe(true);
    // The pages the texts took went back to the disk.
    expect(db.sqlite.pragma('freelist_count', { simple: true })).toBe(0);
    expect(pages()).toBeLessThan(asText - 5);
  });

  it('stops at the batch boundary after its signal aborts; the next run goes on', async () => {
    const controller = new AbortController();
    const first = await packing.pack({
      batch: 10,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(first).toEqual({ packed: 10, left: N - 10 });
    expect(storedCount()).toBe(N - 10);
    expect(readsTheSame()).toBe(true);
    expect(await packing.pack({ batch: 10 })).toEqual({ packed: N - 10, left: 0 });
  });

  it('stops when a sync starts, and shares a running run with a second caller', async () => {
    const first = packing.pack({
      batch: 15,
      onProgress: () => {
        syncing = true;
      },
    });
    const second = packing.pack({ batch: 1 });
    expect(second).toBe(first);
    expect(await first).toEqual({ packed: 15, left: N - 15 });
    // While the sync runs nothing is packed; after it, the rest.
    expect(await packing.pack()).toEqual({ packed: 0, left: N - 15 });
    syncing = false;
    expect(await packing.pack()).toEqual({ packed: N - 15, left: 0 });
    expect(readsTheSame()).toBe(true);
  });
});
