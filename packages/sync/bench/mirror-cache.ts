/**
 * A cached mirror of `records` generated catalog records (the server's bulk generator, as the
 * first sync's service holds them), written by the mirror's own writers in batches: memory
 * stays bounded whatever the count (one batch of records at a time), so the 10,000,000-record
 * run builds like the 1,000-record smoke. Shared by the benches that read a big mirror; the
 * cache name carries the newest migration, so a layout change rebuilds it instead of reading a
 * file of the old layout.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CatalogSearchRequestInput } from '@eo/domain';
import { DEMO } from '@eo/fixtures';
import type Database from 'better-sqlite3';
import { MIGRATIONS_FOLDER, openMirrorDatabase, PAGE_SIZE } from '../src/db/open';
import { givePagesBack } from '../src/mirror/packing';
import { makeMirrorWriters } from '../src/mirror/writers';
import { makeCatalogPacker } from '@eo/catalog-store';
import { cached, fmt, log } from './common';

const BATCH = 20_000;
/** The pass id the cached mirrors were written by (a UUID, as the engine makes them). */
export const BENCH_PASS = 'b3c1a9e2-5f0d-4c1e-9a7b-2d6e8f4a1c30';

function newestMigration(): string {
  const journal = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: Array<{ tag: string }> };
  return journal.entries.at(-1)!.tag.slice(0, 4);
}

/** The cached mirror file of `records` records (built on first use: minutes for millions). */
export async function cachedMirror(records: number): Promise<string> {
  const name = `mirror-m${newestMigration()}-r${records}-p${PAGE_SIZE}`;
  const dir = await cached(name, async (work) => {
    // Loaded only to build (the server package takes seconds to import).
    const { generateCatalogRecords } = await import('@eo/reference-service');
    log(`building a mirror of ${fmt(records)} catalog records in ${work} ...`);
    const t0 = performance.now();
    const local = openMirrorDatabase(path.join(work, 'mirror.db'));
    // Build-time settings only (the file is rebuilt if the build dies): no fsync, a big cache.
    local.sqlite.pragma('synchronous = OFF');
    local.sqlite.pragma('cache_size = -1000000');
    const writer = makeMirrorWriters(local.sqlite).catalogs;
    // Packed as the app packs after a sync (the writer stores text), batch by batch.
    const packer = makeCatalogPacker(local.sqlite);
    const write = local.sqlite.transaction((batch: unknown[]) => {
      writer.write(batch, BENCH_PASS);
      while (packer.next(BATCH).left > 0);
    });
    let batch: unknown[] = [];
    let n = 0;
    const generated = generateCatalogRecords(records, {
      orgId: DEMO.orgId,
      userId: DEMO.users[0].id,
      nowUs: Date.UTC(2026, 0, 1) * 1000,
    });
    for (const r of generated) {
      batch.push(r);
      if (batch.length === BATCH) {
        write(batch);
        n += batch.length;
        batch = [];
        if (n % 200_000 === 0)
          log(`  ${fmt(n)} records, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
    }
    write(batch);
    givePagesBack(local.sqlite);
    local.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    local.close();
    log(`  built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  });
  return path.join(dir, 'mirror.db');
}

/**
 * The benches' query mix: `count` searches, each a 2-degree box around a random record's
 * footprint (seeded Park-Miller, so a run asks the same questions), one year, cloud < 30 %,
 * newest first, 100 a page.
 */
export function searchBodies(
  sqlite: Database.Database,
  count: number,
  seed: number,
): CatalogSearchRequestInput[] {
  const total = (sqlite.prepare('SELECT count(*) AS n FROM catalog_records').get() as { n: number })
    .n;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const centre = sqlite.prepare(
    'SELECT (min_lon + max_lon) / 2 AS lon, (min_lat + max_lat) / 2 AS lat FROM catalog_records WHERE seq = ?',
  );
  return Array.from({ length: count }, () => {
    const { lon, lat } = centre.get(1 + Math.floor(rand() * total)) as { lon: number; lat: number };
    return {
      bbox: [
        Math.max(-180, lon - 1),
        Math.max(-90, lat - 1),
        Math.min(180, lon + 1),
        Math.min(90, lat + 1),
      ],
      datetime: '2024-01-01T00:00:00Z/2024-12-31T23:59:59Z',
      query: { 'eo:cloud_cover': { lt: 30 } },
      sort_by: [{ field: 'datetime', direction: 'desc' }],
      limit: 100,
    };
  });
}
