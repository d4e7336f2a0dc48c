/**
 * The mirror's cloud-cover histogram on a real SQLite mirror: its bins equal a count done in JS
 * over the same records, the search's own cloud filter is left out while its other filters
 * (collections, area) apply, and records without a numeric cloud value are counted apart. An
 * answer is kept (the slider moving asks for the same bars) until the mirror says its catalog
 * changed; a write elsewhere (a thumbnail's last view) keeps it.
 */
import path from 'node:path';
import { COMPACT_LAYOUT, makeCatalogUpserter, type CatalogRecordOut } from '@eo/catalog-store';
import { CLOUD_COVER_BINS, CatalogSearchRequest, cloudCoverBin, readNumber } from '@eo/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { MIRROR_ORG } from '../../mirror/rows';
import { makeOfflineCatalogSearch, OfflineSearchError } from '../catalog';
import { openMirror } from '../../mirror/mirror';
import { makeCloudHistogram } from '../cloud-histogram';

const tmp = tempDir('cloud-histogram');
const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});
makeOfflineCatalogSearch(db.sqlite); // installs eo_intersects and eo_rfc3339
const upsert = makeCatalogUpserter(db.sqlite, 'lenient', COMPACT_LAYOUT);
const histograms = makeCloudHistogram(db.sqlite);
const histogram = (req: CatalogSearchRequest) => histograms.histogram(req);

interface Made {
  id: string;
  collection: string;
  x: number;
  cloud: unknown;
}
const made: Made[] = [];
// Edges (0, 9.99, 10, 99.5, 100), every bin, a numeric string (the mirror reads it as a
// number), and unreadable values (other text, null, missing).
const clouds: unknown[] = [
  0,
  9.99,
  10,
  15,
  25,
  33.3,
  47,
  50,
  61,
  70,
  88,
  99.5,
  100,
  '12',
  'cloudy',
  null,
  undefined,
];
/** A catalog record of `m` (its cloud value as given, none when undefined). */
function recordOf(m: Made): CatalogRecordOut {
  const properties: Record<string, unknown> = { datetime: '2024-01-01T00:00:00Z' };
  if (m.cloud !== undefined) properties['eo:cloud_cover'] = m.cloud;
  return {
    id: m.id,
    created_at: '2024-01-01T00:00:00Z',
    details: {
      id: `item-${m.id}`,
      collection: m.collection,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [m.x, 0],
            [m.x + 1, 0],
            [m.x + 1, 1],
            [m.x, 1],
            [m.x, 0],
          ],
        ],
      },
      properties,
    },
  } as unknown as CatalogRecordOut;
}
const links = { orgId: MIRROR_ORG, orderId: null, orderItemId: null };
for (let i = 0; i < 68; i++) {
  const m: Made = {
    id: `r${i}`,
    collection: i % 3 === 0 ? 'sentinel-2' : 'landsat',
    x: i % 2 === 0 ? 0 : 50,
    cloud: clouds[i % clouds.length],
  };
  made.push(m);
  upsert(recordOf(m), links);
}

/** The same histogram counted in JS, reading values as the mirror's lenient writer does. */
function expected(keep: (m: Made) => boolean) {
  const bins = new Array<number>(CLOUD_COVER_BINS).fill(0);
  let withoutCloud = 0;
  const kept = made.filter(keep);
  for (const m of kept) {
    const cloud = readNumber(m.cloud);
    if (cloud === null) withoutCloud++;
    else bins[cloudCoverBin(cloud)]!++;
  }
  return { bins, total: kept.length, withoutCloud };
}

describe('cloud-cover histogram of the mirror', () => {
  it('bins every record by 10 %, 100 % in the last bin, unreadable values apart', () => {
    const got = histogram(CatalogSearchRequest.parse({}));
    expect(got).toEqual(expected(() => true));
    expect(got.total).toBe(68);
    expect(got.withoutCloud).toBe(12); // 'cloudy', null and missing, 4 of each
    expect(got.bins[0]).toBe(8); // 0 and 9.99, 4 of each
    expect(got.bins[1]).toBe(12); // 10, 15 and '12', 4 of each
    expect(got.bins[9]).toBe(8); // 99.5 and 100, 4 of each
  });

  it('leaves out the search own cloud filter and keeps its other filters', () => {
    const req = CatalogSearchRequest.parse({
      collections: ['landsat'],
      bbox: [40, -1, 60, 2],
      query: { 'eo:cloud_cover': { lte: 20 } },
    });
    expect(histogram(req)).toEqual(expected((m) => m.collection === 'landsat' && m.x === 50));
    // The search itself does apply the cloud filter: the histogram is wider than its results.
    const search = makeOfflineCatalogSearch(db.sqlite);
    const shown = search.parsed({ ...req, limit: 1000 }).pagination.total;
    expect(shown).toBeLessThan(histogram(req).total);
  });

  it('an area holding no record matches nothing', () => {
    const got = histogram(CatalogSearchRequest.parse({ bbox: [100, 10, 110, 20] }));
    expect(got).toEqual({ bins: new Array(CLOUD_COVER_BINS).fill(0), total: 0, withoutCloud: 0 });
  });

  it('a request the SQL cannot express is refused as the search refuses it', () => {
    const req = { ...CatalogSearchRequest.parse({}), query: { gsd: { like: 1 } } };
    expect(() => histogram(req as unknown as CatalogSearchRequest)).toThrow(OfflineSearchError);
  });

  it('keeps an answer until the catalog changes: the slider moving counts nothing again', () => {
    const at = (lte: number) =>
      histogram(CatalogSearchRequest.parse({ query: { 'eo:cloud_cover': { lte } }, limit: lte }));
    const first = at(20);
    // Another slider value, another page size: the same bars, not counted again.
    expect(at(60)).toBe(first);
    expect(first).toEqual(expected(() => true));
    // A write that is not the catalog's (a thumbnail's last view, as `imagery.touch` writes).
    db.sqlite.prepare('CREATE TABLE IF NOT EXISTS other_rows (n INTEGER)').run();
    db.sqlite.prepare('INSERT INTO other_rows VALUES (1)').run();
    expect(at(80)).toBe(first);
  });

  it('counts again once the mirror says its catalog changed', () => {
    const all = () => histogram(CatalogSearchRequest.parse({}));
    const before = all();
    db.sqlite.prepare('UPDATE catalog_records SET cloud_cover = 5 WHERE id = ?').run('r2');
    histograms.invalidate();
    const after = all();
    expect(after.bins[0]).toBe(before.bins[0]! + 1);
    expect(after.bins[1]).toBe(before.bins[1]! - 1); // r2 held 10 %
    db.sqlite.prepare('UPDATE catalog_records SET cloud_cover = 10 WHERE id = ?').run('r2');
    histograms.invalidate();
    expect(all()).toEqual(before);
  });

  it('the mirror drops its kept bars when its catalog changes (a clear)', () => {
    const file = path.join(tmp.dir, 'cleared.db');
    const writer = openMirrorDatabase(file);
    const write = makeCatalogUpserter(writer.sqlite, 'lenient', COMPACT_LAYOUT);
    for (const id of ['a', 'b', 'c'])
      write(recordOf({ id, collection: 'c', x: 0, cloud: 30 }), links);
    writer.close();
    const mirror = openMirror(file);
    try {
      const req = CatalogSearchRequest.parse({});
      expect(mirror.catalog.cloudHistogram(req).total).toBe(3);
      mirror.clear();
      expect(mirror.catalog.cloudHistogram(req).total).toBe(0);
    } finally {
      mirror.close();
    }
  });
});
