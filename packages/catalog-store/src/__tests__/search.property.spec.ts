/**
 * The SQL catalog search against the domain reference: for random records (mixed property
 * types, missing values, footprints on a coarse grid so that touching is common, boxes across
 * the antimeridian) and random requests, `makeCatalogSearch` returns exactly what
 * `runCatalogSearch` returns: the same ids in the same order, and the same total.
 */
import {
  CatalogSearchRequest,
  runCatalogSearch,
  type CatalogRecord,
  type Geometry,
} from '@eo/domain';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPACT_LAYOUT, JSON_LAYOUT } from '../layout';
import { makeCatalogListSearch, makeCatalogSearch } from '../search';
import { makeCatalogInserter, type CatalogRecordOut } from '../writes';
import { tempCatalog } from './temp-store';

// --- values --------------------------------------------------------------------------------

const INSTANTS = [
  '2024-01-01T00:00:00Z',
  '2024-01-01T02:00:00+02:00', // the same instant as the first
  '2024-01-01T00:00:00.000001Z',
  '2024-03-15T12:30:00Z',
  '2024-03-15T12:30:00.5-03:00',
  '2025-01-01T00:00:00Z',
];
const instant = fc.constantFrom(...INSTANTS);
const lon = fc.integer({ min: -18, max: 18 }).map((x) => x * 10);
const lat = fc.integer({ min: -9, max: 9 }).map((x) => x * 10);
const text = fc.constantFrom('a', 'b', 'B', 'é', 'Z', 'aa', '😀', '\uE000', '');
const num = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, 2.5, 1e20));
const scalar = fc.oneof(num, text, fc.boolean());
/** A property value of any JSON type, or absent (undefined keys are dropped). */
const anyValue = fc.oneof(
  { weight: 3, arbitrary: scalar },
  fc.constant(null),
  fc.constant([1, 2]),
  fc.constant({ x: 1 }),
  fc.constant(undefined),
);

const rectangle = fc
  .tuple(lon, lat, lon, lat)
  .map(([a, b, c, d]): [number, number, number, number] => [
    Math.min(a, c),
    Math.min(b, d),
    Math.max(a, c),
    Math.max(b, d),
  ]);
const polygonOf = ([w, s, e, n]: number[]): Geometry => ({
  type: 'Polygon',
  coordinates: [
    [
      [w!, s!],
      [e!, s!],
      [e!, n!],
      [w!, n!],
      [w!, s!],
    ],
  ],
});
const point = fc
  .tuple(lon, lat)
  .map(([x, y]): Geometry => ({ type: 'Point', coordinates: [x, y] }));
const line = fc.tuple(lon, lat, lon, lat).map(([a, b, c, d]): Geometry => ({
  type: 'LineString',
  coordinates: [
    [a, b],
    [c, d],
  ],
}));
const geometry: fc.Arbitrary<Geometry> = fc.oneof(
  rectangle.map(polygonOf),
  point,
  line,
  fc.tuple(rectangle, rectangle).map(([a, b]): Geometry => ({
    type: 'MultiPolygon',
    coordinates: [
      (polygonOf(a) as { coordinates: number[][][] }).coordinates,
      (polygonOf(b) as { coordinates: number[][][] }).coordinates,
    ],
  })),
  fc
    .tuple(point, line)
    .map(([p, l]): Geometry => ({ type: 'GeometryCollection', geometries: [p, l] })),
);

// --- records -------------------------------------------------------------------------------

interface Gen {
  record: CatalogRecordOut;
  orderId: string | null;
  orderItemId: string | null;
}

const ID_CHARS = fc.constantFrom('a', 'b', 'B', 'é', 'Z', '😀', '\uE000', '-');
const records = fc
  .uniqueArray(fc.string({ unit: ID_CHARS, minLength: 1, maxLength: 3 }), {
    maxLength: 24,
  })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc
          .record({
            itemId: fc.constantFrom('i1', 'i2', 'i3'),
            collection: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
            orderId: fc.option(fc.constantFrom('o1', 'o2')),
            orderItemId: fc.option(fc.constantFrom('oi1', 'oi2')),
            geometry: fc.option(geometry, { freq: 4 }),
            datetime: fc.oneof({ weight: 4, arbitrary: instant }, fc.constantFrom('not a time', 5)),
            created: fc.oneof(instant, anyValue),
            // record timestamps are ISO with Z or +00:00 (the record schema's layout)
            createdAt: fc.option(fc.constantFrom(INSTANTS[0]!, INSTANTS[2]!, INSTANTS[3]!), {
              nil: undefined,
            }),
            cloud: anyValue,
            gsd: fc.option(num, { nil: undefined }),
            score: anyValue,
            platform: fc.option(anyValue, { nil: undefined }),
            sun: fc.option(anyValue, { nil: undefined }),
            area: anyValue,
          })
          .map((r): Gen => {
            const properties: Record<string, unknown> = {
              datetime: r.datetime,
              created: r.created,
            };
            if (r.cloud !== undefined) properties['eo:cloud_cover'] = r.cloud;
            if (r.gsd !== undefined) properties.gsd = r.gsd;
            if (r.score !== undefined) properties.score = r.score;
            if (r.platform !== undefined) properties.platform = r.platform;
            if (r.sun !== undefined) properties['view:sun_elevation'] = r.sun;
            const record = {
              id,
              task_id: null,
              org_id: 'org',
              delivery_status: 'SUCCESSFUL',
              ...(r.area === undefined ? {} : { area: r.area }),
              ...(r.createdAt === undefined ? {} : { created_at: r.createdAt }),
              details: {
                type: 'Feature',
                id: r.itemId,
                ...(r.collection === undefined ? {} : { collection: r.collection }),
                geometry: r.geometry,
                assets: {},
                links: [],
                stac_extensions: [],
                properties,
              },
            } as unknown as CatalogRecordOut;
            return { record, orderId: r.orderId, orderItemId: r.orderItemId };
          }),
      ),
    ),
  );

// --- requests ------------------------------------------------------------------------------

const PATHS = [
  'eo:cloud_cover',
  'properties.eo:cloud_cover',
  'gsd',
  'score',
  'platform',
  'view:sun_elevation',
  'datetime',
  'created',
  'created_at',
  'id',
  'item_id',
  'collection',
  'area',
  'missing_key',
  'properties.we"ird',
];
const TIMESTAMP_PATHS = new Set(['datetime', 'created', 'created_at']);

const queryFor = (p: string) => {
  const v: fc.Arbitrary<string | number | boolean> = TIMESTAMP_PATHS.has(p) ? instant : scalar;
  const ordered: fc.Arbitrary<string | number> = TIMESTAMP_PATHS.has(p)
    ? instant
    : fc.oneof(num, text);
  const ops = fc.record({
    eq: fc.oneof(v, fc.array(v, { minLength: 1, maxLength: 3 })),
    neq: fc.oneof(v, fc.array(v, { minLength: 1, maxLength: 3 })),
    gt: ordered,
    gte: ordered,
    lt: ordered,
    lte: ordered,
  });
  // One or two operators: more would rarely let anything through.
  return fc
    .tuple(
      ops,
      fc.subarray(['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const, { minLength: 1, maxLength: 2 }),
    )
    .map(([all, keys]) => Object.fromEntries(keys.map((k) => [k, all[k]])));
};

const someOf = <T>(values: readonly T[]) => fc.subarray([...values], { minLength: 1 });

/** A request with at most two filters (more would match nothing most of the time). */
const request = (ids: string[]) =>
  fc
    .tuple(filters(ids), fc.subarray([...FILTER_KEYS], { maxLength: 2 }), paging)
    .map(([all, keys, page]) => ({
      ...Object.fromEntries(keys.map((k) => [k, all[k]])),
      ...page,
    }));

const FILTER_KEYS = [
  'bbox',
  'intersects',
  'datetime',
  'ids',
  'item_ids',
  'collections',
  'order_ids',
  'order_item_ids',
  'query',
] as const;

const paging = fc.record(
  {
    sort_by: fc.array(
      fc.record({ field: fc.constantFrom(...PATHS), direction: fc.constantFrom('asc', 'desc') }),
      { maxLength: 3 },
    ),
    limit: fc.integer({ min: 1, max: 30 }),
    offset: fc.integer({ min: 0, max: 10 }),
  },
  { requiredKeys: [] },
);

const filters = (ids: string[]) =>
  fc.record({
    bbox: fc
      .tuple(lon, lat, lon, lat)
      .map(([w, s, e, n]) => [w, Math.min(s, n), e, Math.max(s, n)]),
    intersects: geometry,
    datetime: fc.oneof(
      instant,
      fc
        .tuple(instant, instant)
        .map(([a, b]) => (Date.parse(a) <= Date.parse(b) ? `${a}/${b}` : `${b}/${a}`)),
      instant.map((a) => `${a}/..`),
      instant.map((a) => `../${a}`),
    ),
    ids: someOf([...ids, 'unknown']),
    item_ids: someOf(['i1', 'i2', 'i9']),
    collections: someOf(['c1', 'c2']),
    order_ids: someOf(['o1', 'o2']),
    order_item_ids: someOf(['oi1', 'oi2']),
    query: fc
      .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 3 })
      .chain((paths) => fc.tuple(...paths.map((p) => queryFor(p).map((ops) => [p, ops] as const))))
      .map((entries) => Object.fromEntries(entries)),
  });

// Both layouts answer alike: the compact one reads platform and sun elevation from columns,
// footprints from geometry BLOBs, other paths from the packed record.
describe.each([JSON_LAYOUT, COMPACT_LAYOUT])(
  'catalog search SQL = runCatalogSearch ($name layout)',
  (layout) => {
    const db = tempCatalog('prop', layout);
    afterAll(() => db.close());
    const insert = makeCatalogInserter(db.sqlite, 'strict', layout);
    const search = makeCatalogSearch(db.sqlite, layout);
    const list = makeCatalogListSearch(db.sqlite, layout);
    let run = 0;
    const seen = { runs: 0, nonEmpty: 0, spatial: 0, query: 0, sorted: 0 };

    it('returns the same ids, order and total for random records and requests', () => {
      fc.assert(
        fc.property(
          records.chain((recs) =>
            fc.tuple(fc.constant(recs), request(recs.map((r) => r.record.id))),
          ),
          ([recs, raw]) => {
            const parsed = CatalogSearchRequest.safeParse(raw);
            fc.pre(parsed.success);
            const req = parsed.success ? parsed.data : (undefined as never);
            const orgId = `org-prop-${run++}`;
            // Record ids are global; a per-run prefix keeps their relative order.
            const prefix = `${orgId}:`;
            const stored = recs.map((g) => ({
              ...g,
              record: { ...g.record, id: prefix + g.record.id, org_id: orgId },
            }));
            const reqScoped = req.ids ? { ...req, ids: req.ids.map((i) => prefix + i) } : req;
            db.sqlite.transaction(() => {
              for (const g of stored)
                insert(g.record, { orgId, orderId: g.orderId, orderItemId: g.orderItemId });
            })();
            const expected = runCatalogSearch(
              stored.map((g) => ({
                record: g.record as unknown as CatalogRecord,
                links: { orderId: g.orderId, orderItemId: g.orderItemId },
              })),
              reqScoped,
            );
            const actual = search(orgId, reqScoped);
            const got = actual.json.map((j) => (JSON.parse(j) as { id: string }).id);
            const want = expected.catalogs.map((r) => r.id);
            if (JSON.stringify(got) !== JSON.stringify(want) && process.env.PROP_DEBUG)
              console.log(JSON.stringify({ req: reqScoped, got, want }));
            expect(got).toEqual(want);
            expect(actual.total).toBe(expected.total);
            // Whole records come back byte for byte; list rows in the same order, same total.
            expect(actual.json).toEqual(expected.catalogs.map((r) => JSON.stringify(r)));
            const rows = list(orgId, reqScoped);
            expect(rows.rows.map((r) => r.id)).toEqual(want);
            expect(rows.total).toBe(expected.total);
            seen.runs++;
            if (expected.total > 0) seen.nonEmpty++;
            if (expected.total > 0 && (req.bbox || req.intersects)) seen.spatial++;
            if (expected.total > 0 && req.query) seen.query++;
            if (got.length > 1 && req.sort_by?.length) seen.sorted++;
          },
        ),
        {
          numRuns: Number(process.env.PROP_RUNS ?? 400),
          seed: Number(process.env.PROP_SEED ?? 4242),
        },
      );
      // The generators must exercise the interesting cases, not just empty results.
      expect(seen.nonEmpty).toBeGreaterThan(seen.runs / 4);
      expect(seen.spatial).toBeGreaterThan(0);
      expect(seen.query).toBeGreaterThan(0);
      expect(seen.sorted).toBeGreaterThan(0);
    });
  },
);
