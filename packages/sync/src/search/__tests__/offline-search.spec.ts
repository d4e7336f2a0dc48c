/**
 * Offline catalog search after a real sync: for random searches, the mirror answers exactly
 * what the service answers and what the domain reference (`runCatalogSearch`) computes over the
 * mirrored records: the same ids in the same order and the same total. Invalid requests fail
 * with the schema's issues.
 */
import path from 'node:path';
import {
  COMPACT_LAYOUT,
  compileCatalogSql,
  catalogSearchStatements,
  footprintRing,
} from '@eo/catalog-store';
import {
  CatalogSearchRequest,
  geometryBbox,
  type Geometry,
  runCatalogSearch,
  type CatalogRecord,
  type CatalogSearchRequestInput,
  type SearchableRecord,
} from '@eo/domain';
import type { BodyInput } from '@eo/api-client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase, type MirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { MIRROR_ORG } from '../../mirror/rows';
import { createSyncEngine, type SyncEngine } from '../../pull/engine';
import { countingClient, startService, type TestService } from '../../pull/__tests__/service';
import { OfflineSearchError } from '../catalog';
import { footprintIds, makeCatalogFootprints } from '../footprints';

let service: TestService;
let db: MirrorDatabase;
let engine: SyncEngine;
let searchService: (req: CatalogSearchRequestInput) => Promise<{ ids: string[]; total: number }>;
let records: SearchableRecord[];
let collections: string[];
let itemIds: string[];
let orderIds: string[];
const tmp = tempDir('offline-search');

beforeAll(async () => {
  service = await startService();
  const { client } = countingClient(service);
  db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
  engine = createSyncEngine({ db, client });
  await engine.sync();
  searchService = async (req) => {
    const r = await client.searchCatalogs(req as BodyInput<'searchCatalogs'>);
    return { ids: r.catalogs.map((c) => c.id), total: r.pagination.total ?? -1 };
  };
  const rows = db.sqlite
    .prepare(
      `SELECT ${COMPACT_LAYOUT.recordSql} AS record_json, order_id, order_item_id FROM catalog_records c`,
    )
    .all() as Array<{ record_json: string; order_id: string | null; order_item_id: string | null }>;
  records = rows.map((r) => ({
    record: CatalogRecordOf(r.record_json),
    links: { orderId: r.order_id, orderItemId: r.order_item_id },
  }));
  collections = [...new Set(records.map((r) => String(r.record.details.collection)))];
  itemIds = records.slice(0, 20).map((r) => r.record.details.id);
  orderIds = [...new Set(records.flatMap((r) => (r.links.orderId ? [r.links.orderId] : [])))];
});
afterAll(async () => {
  db?.close();
  await service.close();
  tmp.remove();
});

function CatalogRecordOf(json: string): CatalogRecord {
  return JSON.parse(json) as CatalogRecord;
}

const lon = fc.integer({ min: -36, max: 36 }).map((x) => x * 5);
const lat = fc.integer({ min: -18, max: 18 }).map((x) => x * 5);
const bbox = fc
  .tuple(lon, lat, lon, lat)
  .map(
    ([w, s, e, n]) => [w, Math.min(s, n), e, Math.max(s, n)] as [number, number, number, number],
  );
const sortField = fc.constantFrom(
  'datetime',
  'eo:cloud_cover',
  'gsd',
  'view:off_nadir',
  'id',
  'collection',
);

/** At most two filters at once (more would rarely match anything), a sort and a page. */
function searchArb(): fc.Arbitrary<CatalogSearchRequestInput> {
  const filters = fc.record({
    collections: fc.subarray(collections, { minLength: 1 }),
    item_ids: fc.subarray(itemIds, { minLength: 1 }),
    order_ids: fc.subarray(orderIds.length ? orderIds : ['none'], { minLength: 1 }),
    bbox,
    datetime: fc.constantFrom(
      '2020-01-01T00:00:00Z/..',
      '../2024-06-01T00:00:00Z',
      '2023-01-01T00:00:00Z/2025-01-01T00:00:00Z',
    ),
    query: fc.oneof(
      fc.record({ 'eo:cloud_cover': fc.record({ lt: fc.integer({ min: 0, max: 100 }) }) }),
      fc.record({ gsd: fc.record({ gte: fc.constantFrom(0.3, 1, 5, 10) }) }),
    ),
  });
  const keys = fc.subarray(
    ['collections', 'item_ids', 'order_ids', 'bbox', 'datetime', 'query'] as const,
    { maxLength: 2 },
  );
  return fc
    .record({
      filters,
      keys,
      sort_by: fc.array(
        fc.record({
          field: sortField,
          direction: fc.constantFrom('asc' as const, 'desc' as const),
        }),
        { maxLength: 2 },
      ),
      limit: fc.integer({ min: 1, max: 60 }),
      offset: fc.integer({ min: 0, max: 80 }),
    })
    .map(({ filters: f, keys: k, sort_by, limit, offset }) => ({
      ...Object.fromEntries(k.map((key) => [key, f[key]])),
      sort_by,
      limit,
      offset,
    }));
}

describe('offline catalog search', () => {
  it('mirror == service == domain reference for random searches', async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(searchArb(), async (input) => {
        const offline = engine.searchCatalog(input);
        const online = await searchService(input);
        const oracle = runCatalogSearch(records, CatalogSearchRequest.parse(input));
        const offlineIds = offline.catalogs.map((c) => c.id);
        expect(offlineIds).toEqual(online.ids);
        expect(offline.pagination.total).toBe(online.total);
        expect(offlineIds).toEqual(oracle.catalogs.map((c) => c.id));
        expect(offline.pagination.total).toBe(oracle.total);
        if (offlineIds.length > 0) nonEmpty++;
      }),
      { numRuns: 60, seed: 20261122 },
    );
    // The searches must select something often enough for the comparison to mean anything.
    expect(nonEmpty).toBeGreaterThan(10);
  });

  it('footprints: every match of random searches (paging ignored), each with its stored ring', async () => {
    const footprints = makeCatalogFootprints(db.sqlite);
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(searchArb(), async (input) => {
        const parsed = CatalogSearchRequest.parse(input);
        const fp = footprints.footprints(parsed);
        const all = { ...parsed, limit: records.length, offset: 0 };
        const oracle = runCatalogSearch(records, all).catalogs;
        const online = await searchService({ ...input, limit: 1000, offset: 0 });
        const ids = footprintIds(fp);
        expect([...ids].sort()).toEqual(oracle.map((c) => c.id).sort());
        expect([...ids].sort()).toEqual([...online.ids].sort());
        const byId = new Map(oracle.map((c) => [c.id, c]));
        ids.forEach((id, i) => {
          const g = byId.get(id)!.details.geometry as Geometry;
          const ring = footprintRing(g, geometryBbox(g))!.map(Math.fround);
          expect([...fp.coords.subarray(fp.offsets[i]! * 2, fp.offsets[i + 1]! * 2)]).toEqual(ring);
        });
        if (ids.length > 0) nonEmpty++;
      }),
      { numRuns: 30, seed: 20261125 },
    );
    expect(nonEmpty).toBeGreaterThan(5);
  });

  it('footprints: the last answer is kept across paging and sort, forgotten on invalidate', () => {
    const footprints = makeCatalogFootprints(db.sqlite);
    const first = footprints.footprints(CatalogSearchRequest.parse({}));
    expect(footprintIds(first).length).toBe(records.length);
    // The page's first search (sorted by date, paged) finds the launch's warm-up answer.
    const sorted = { sort_by: [{ field: 'datetime', direction: 'desc' }], limit: 5, offset: 10 };
    expect(footprints.footprints(CatalogSearchRequest.parse(sorted))).toBe(first);
    const filtered = footprints.footprints(
      CatalogSearchRequest.parse({ collections: [collections[0]!] }),
    );
    expect(filtered).not.toBe(first);
    footprints.invalidate();
    const again = footprints.footprints(CatalogSearchRequest.parse({}));
    expect(again).not.toBe(first);
    expect(footprintIds(again)).toEqual(footprintIds(first));
  });

  it('the whole mirror, default order, equals the service page by page', async () => {
    const offline = engine.searchCatalog({ limit: 1000 });
    const online = await searchService({ limit: 1000 });
    expect(offline.catalogs.map((c) => c.id)).toEqual(online.ids);
    expect(offline.catalogs.length).toBeGreaterThan(250);
  });

  it('returns records exactly as the service sent them', async () => {
    const [first] = engine.searchCatalog({ limit: 1 }).catalogs;
    const { client } = countingClient(service);
    const online = await client.searchCatalogs({ limit: 1 });
    expect(first).toEqual(online.catalogs[0]);
  });

  it('reads property names of Object.prototype as plain names (they threw, as the service 500d)', async () => {
    const inputs: CatalogSearchRequestInput[] = [
      { query: { constructor: { eq: 1 } } },
      { query: { 'properties.__proto__': { eq: 1 } } },
      { query: { toString: { neq: 'x' }, valueOf: { gt: 0 } } },
      { sort_by: [{ field: 'toString', direction: 'asc' }], limit: 50 },
      { sort_by: [{ field: 'hasOwnProperty', direction: 'desc' }], limit: 50 },
    ];
    for (const input of inputs) {
      const offline = engine.searchCatalog(input);
      const online = await searchService(input);
      const oracle = runCatalogSearch(records, CatalogSearchRequest.parse(input));
      expect(
        offline.catalogs.map((c) => c.id),
        JSON.stringify(input),
      ).toEqual(online.ids);
      expect(offline.catalogs.map((c) => c.id)).toEqual(oracle.catalogs.map((c) => c.id));
      expect(offline.pagination.total).toBe(oracle.total);
    }
  });

  it('a "__proto__" query key (JSON.parse makes it an own key) filters, it is not dropped', () => {
    const input = JSON.parse('{"query":{"__proto__":{"eq":1}}}') as CatalogSearchRequestInput;
    const offline = engine.searchCatalog(input);
    const oracle = runCatalogSearch(records, CatalogSearchRequest.parse(input));
    // No record has a property named __proto__: nothing matches (it matched everything).
    expect(offline.pagination.total).toBe(0);
    expect(oracle.total).toBe(0);
  });

  it('rejects invalid requests with the schema issues, by path', () => {
    const attempt = () => engine.searchCatalog({ limit: 0, bbox: [10, 10, 5] } as never);
    expect(attempt).toThrow(OfflineSearchError);
    try {
      attempt();
    } catch (e) {
      const paths = (e as OfflineSearchError).issues.map((i) => i.path);
      expect(paths).toContain('limit');
      expect(paths).toContain('bbox');
    }
  });

  it('bbox searches are driven by the R*Tree', () => {
    const req = CatalogSearchRequest.parse({ bbox: [0, 0, 20, 20] });
    const c = compileCatalogSql(MIRROR_ORG, req, COMPACT_LAYOUT);
    const sql = catalogSearchStatements(c, 'c.seq');
    const plan = (
      db.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${sql.page}`)
        .all({ ...c.params, token: 0, limit: 10, offset: 0 }) as Array<{ detail: string }>
    ).map((r) => r.detail);
    expect(plan[0]).toMatch(/VIRTUAL TABLE INDEX \d+:/);
    expect(plan.join('\n')).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
  });

  it('the desktop query (bbox + datetime + cloud cover, sorted) reads the R*Tree, then rows by key', () => {
    // The statement a spatial search runs (page and total in one pass), as in bench/offline-search.ts.
    const req = CatalogSearchRequest.parse({
      bbox: [10, 40, 12, 42],
      datetime: '2024-01-01T00:00:00Z/2024-12-31T23:59:59Z',
      query: { 'eo:cloud_cover': { lt: 30 } },
      sort_by: [{ field: 'datetime', direction: 'desc' }],
      limit: 100,
    });
    const c = compileCatalogSql(MIRROR_ORG, req, COMPACT_LAYOUT);
    const plan = (
      db.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${catalogSearchStatements(c, 'c.seq').pageWithTotal}`)
        .all({ ...c.params, token: 0, limit: 100, offset: 0 }) as Array<{ detail: string }>
    ).map((r) => r.detail);
    const text = plan.join('\n');
    // Inside the window's co-routine: the R*Tree box first, then each candidate's row by its
    // key; never a scan of the table nor a walk of a datetime index. Only the matches are sorted.
    const rtree = plan.findIndex((d) => /^SCAN r VIRTUAL TABLE INDEX \d+:/.test(d));
    const byKey = plan.findIndex((d) => /^SEARCH c USING INTEGER PRIMARY KEY/.test(d));
    expect(rtree).toBeGreaterThanOrEqual(0);
    expect(byKey).toBeGreaterThan(rtree);
    expect(text).not.toMatch(/SCAN c\b/);
    expect(text).not.toMatch(/INDEX catalog_org/);
  });

  it('the default order walks the (org, datetime desc, id) index instead of sorting', () => {
    const req = CatalogSearchRequest.parse({});
    const c = compileCatalogSql(MIRROR_ORG, req, COMPACT_LAYOUT);
    const plan = (
      db.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${catalogSearchStatements(c, 'c.seq').page}`)
        .all({ ...c.params, limit: 10, offset: 0 }) as Array<{ detail: string }>
    ).map((r) => r.detail);
    // Covering: the page selects row numbers only (records are decoded after).
    expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX catalog_org_dt_desc/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
