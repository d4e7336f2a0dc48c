import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, OTHER, type TestApp } from '../../testing/harness';
import { DEMO } from '@eo/fixtures';
import { insertFixtures, square, type Fixture } from './fixtures';

const C = 'col-test';
const org = DEMO.orgId;
const FIXTURES: Fixture[] = [
  {
    id: 'tc-01',
    orgId: org,
    orderId: 'ord-1',
    orderItemId: 'oi-1',
    itemId: 'it-1',
    collection: C,
    geometry: square(10, 10, 11, 11),
    properties: {
      datetime: '2024-03-01T00:00:00Z',
      created: '2024-03-02T00:00:00Z',
      'eo:cloud_cover': 5,
      score: 5,
      platform: 'aurora-1',
    },
  },
  {
    id: 'tc-02',
    orgId: org,
    orderId: 'ord-1',
    orderItemId: 'oi-2',
    collection: C,
    geometry: square(179.5, -1, 180, 1),
    properties: {
      datetime: '2024-03-05T00:00:00Z',
      'eo:cloud_cover': 50,
      score: 50,
      platform: 'aurora-2',
    },
  },
  {
    id: 'tc-03',
    orgId: org,
    orderId: 'ord-2',
    collection: C,
    geometry: square(-180, -1, -179.5, 1),
    properties: { datetime: '2024-03-10T00:00:00Z', platform: 'kestrel-1' },
  },
  {
    id: 'tc-04',
    orgId: org,
    collection: C,
    geometry: null,
    // An own property named like a member of Object.prototype.
    properties: { 'eo:cloud_cover': 20, score: 20, constructor: 7 },
  },
  {
    id: 'tc-05',
    orgId: org,
    collection: C,
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [20, 20],
          [22, 20],
          [22, 22],
          [20, 22],
          [20, 20],
        ],
        [
          [20.5, 20.5],
          [20.5, 21.5],
          [21.5, 21.5],
          [21.5, 20.5],
          [20.5, 20.5],
        ],
      ],
    },
    properties: { datetime: '2024-03-10T00:00:00Z', 'eo:cloud_cover': 70, score: 'high' },
  },
  {
    id: 'tc-06',
    orgId: org,
    collection: C,
    geometry: { type: 'Point', coordinates: [30, 30] },
    properties: {
      datetime: '2024-03-07T12:00:00+02:00',
      'eo:cloud_cover': 12.5,
      score: 12.5,
      flag: true,
    },
  },
  {
    id: 'tc-other',
    orgId: OTHER.orgId,
    orderId: 'ord-1',
    collection: C,
    geometry: square(10, 10, 11, 11),
    properties: { datetime: '2024-03-01T00:00:00Z', 'eo:cloud_cover': 5 },
  },
];

let t: TestApp;
let demoRecords: number;
beforeAll(async () => {
  t = await createTestApp();
  demoRecords = (
    t.app.ctx.sqlite
      .prepare('SELECT count(*) AS n FROM catalog_records WHERE org_id = ?')
      .get(org) as { n: number }
  ).n;
  insertFixtures(t.app.ctx.sqlite, FIXTURES);
});
afterAll(async () => t.close());

const post = (body: object, key?: string) =>
  t.call({ method: 'POST', url: '/v0/catalogs/search', payload: body, ...(key ? { key } : {}) });
async function ids(body: object, key?: string): Promise<string[]> {
  const res = await post({ collections: [C], ...body }, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().catalogs.map((c: { id: string }) => c.id);
}

describe('POST /v0/catalogs/search', () => {
  it('answers the org records, datetime desc then id, missing datetimes last, offset pagination', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(demoRecords).toBeGreaterThan(0);
    expect(body.pagination).toEqual({ limit: 100, offset: 0, total: demoRecords + 6 });
    expect(body.catalogs.every((c: { org_id: string }) => c.org_id === org)).toBe(true);
    expect(await ids({})).toEqual(['tc-03', 'tc-05', 'tc-06', 'tc-02', 'tc-01', 'tc-04']);
    const seeded = body.catalogs.filter((c: { id: string }) => c.id.startsWith('cat-demo-'));
    expect(seeded[0].details.properties).toHaveProperty('proj:wkt2');
  });

  it('pages with limit and offset', async () => {
    const res = await post({ collections: [C], limit: 2, offset: 1 });
    expect(res.json().pagination).toEqual({ limit: 2, offset: 1, total: 6 });
    expect(res.json().catalogs.map((c: { id: string }) => c.id)).toEqual(['tc-05', 'tc-06']);
    expect(await ids({ offset: 6 })).toEqual([]);
    expect((await post({ collections: [C], offset: 99 })).json().pagination.total).toBe(6);
  });

  it('filters by bbox with exact footprints, touching edges, holes and the antimeridian', async () => {
    expect(await ids({ bbox: [10.5, 10.5, 12, 12] })).toEqual(['tc-01']);
    expect(await ids({ bbox: [11, 11, 12, 12] })).toEqual(['tc-01']);
    expect(await ids({ bbox: [11.0001, 11.0001, 12, 12] })).toEqual([]);
    expect(await ids({ bbox: [179.8, -0.5, -179.8, 0.5] })).toEqual(['tc-03', 'tc-02']);
    expect(await ids({ bbox: [-179.9, -0.5, -179.8, 0.5] })).toEqual(['tc-03']);
    expect(await ids({ bbox: [20.6, 20.6, 21.4, 21.4] })).toEqual([]);
    expect(await ids({ bbox: [20.4, 20.6, 21.4, 21.4] })).toEqual(['tc-05']);
    expect(await ids({ bbox: [-180, -90, 180, 90] })).toEqual([
      'tc-03',
      'tc-05',
      'tc-06',
      'tc-02',
      'tc-01',
    ]);
  });

  it('filters by intersects with every geometry type', async () => {
    expect(await ids({ intersects: { type: 'Point', coordinates: [30, 30] } })).toEqual(['tc-06']);
    expect(
      await ids({
        intersects: {
          type: 'MultiPoint',
          coordinates: [
            [30, 30],
            [10.5, 10.5],
          ],
        },
      }),
    ).toEqual(['tc-06', 'tc-01']);
    expect(
      await ids({
        intersects: {
          type: 'LineString',
          coordinates: [
            [9, 9],
            [12, 12],
          ],
        },
      }),
    ).toEqual(['tc-01']);
    expect(
      await ids({
        intersects: {
          type: 'MultiLineString',
          coordinates: [
            [
              [29, 30],
              [31, 30],
            ],
            [
              [0, 0],
              [1, 1],
            ],
          ],
        },
      }),
    ).toEqual(['tc-06']);
    expect(await ids({ intersects: square(21, 21, 21.2, 21.2) })).toEqual([]);
    expect(
      await ids({
        intersects: {
          type: 'MultiPolygon',
          coordinates: [
            square(21, 21, 23, 23).type === 'Polygon'
              ? (square(21, 21, 23, 23) as { coordinates: number[][][] }).coordinates
              : [],
          ],
        },
      }),
    ).toEqual(['tc-05']);
    expect(
      await ids({
        intersects: {
          type: 'GeometryCollection',
          geometries: [
            { type: 'Point', coordinates: [10.5, 10.5] },
            { type: 'Point', coordinates: [179.9, 0] },
          ],
        },
      }),
    ).toEqual(['tc-02', 'tc-01']);
  });

  it('filters by datetime instants and intervals (offsets normalised, bounds inclusive)', async () => {
    expect(await ids({ datetime: '2024-03-05T00:00:00Z/2024-03-10T00:00:00Z' })).toEqual([
      'tc-03',
      'tc-05',
      'tc-06',
      'tc-02',
    ]);
    expect(await ids({ datetime: '../2024-03-04T00:00:00Z' })).toEqual(['tc-01']);
    expect(await ids({ datetime: '2024-03-06T00:00:00Z/..' })).toEqual(['tc-03', 'tc-05', 'tc-06']);
    expect(await ids({ datetime: '2024-03-07T10:00:00Z' })).toEqual(['tc-06']);
  });

  it('filters by ids, item_ids, collections, order_ids and order_item_ids', async () => {
    expect(await ids({ ids: ['tc-04', 'tc-02', 'nope'] })).toEqual(['tc-02', 'tc-04']);
    expect(await ids({ item_ids: ['it-1'] })).toEqual(['tc-01']);
    expect(await ids({ order_ids: ['ord-1'] })).toEqual(['tc-02', 'tc-01']);
    expect(await ids({ order_item_ids: ['oi-2'] })).toEqual(['tc-02']);
    expect(await ids({ collections: ['col-none'] })).toEqual([]);
  });

  it('applies typed query operators', async () => {
    expect(await ids({ query: { 'eo:cloud_cover': { lt: 20 } } })).toEqual(['tc-06', 'tc-01']);
    expect(await ids({ query: { 'eo:cloud_cover': { gte: 12.5, lte: 20 } } })).toEqual([
      'tc-06',
      'tc-04',
    ]);
    expect(await ids({ query: { 'eo:cloud_cover': { eq: [5, 70] } } })).toEqual(['tc-05', 'tc-01']);
    expect(await ids({ query: { 'eo:cloud_cover': { eq: 'a' } } })).toEqual([]);
    expect(await ids({ query: { score: { eq: [5, 'high'] } } })).toEqual(['tc-05', 'tc-01']);
    expect(await ids({ query: { 'properties.score': { neq: 5 } } })).toEqual([
      'tc-06',
      'tc-02',
      'tc-04',
    ]);
    expect(await ids({ query: { score: { gt: 'a' } } })).toEqual(['tc-05']);
    expect(await ids({ query: { score: { lt: 20 } } })).toEqual(['tc-06', 'tc-01']);
    expect(await ids({ query: { score: { neq: [5, 'high'] } } })).toEqual([]);
    expect(await ids({ query: { score: { neq: [5, 50] } } })).toEqual(['tc-06', 'tc-04']);
    expect(await ids({ query: { flag: { eq: true } } })).toEqual(['tc-06']);
    expect(await ids({ query: { flag: { neq: false } } })).toEqual(['tc-06']);
    expect(await ids({ query: { platform: { eq: 'aurora-1' } } })).toEqual(['tc-01']);
    expect(await ids({ query: { platform: { gt: 'aurora-1' } } })).toEqual(['tc-03', 'tc-02']);
    expect(await ids({ query: { created: { gt: '2024-03-01T23:00:00-02:00' } } })).toEqual([]);
    expect(await ids({ query: { created: { gte: '2024-03-01T23:00:00-01:00' } } })).toEqual([
      'tc-01',
    ]);
    expect(await ids({ query: { id: { eq: 'tc-04' } } })).toEqual(['tc-04']);
  });

  it('sorts by sort_by: typed order, missing last both ways, id tie-break', async () => {
    expect(await ids({ sort_by: [{ field: 'eo:cloud_cover', direction: 'desc' }] })).toEqual([
      'tc-05',
      'tc-02',
      'tc-04',
      'tc-06',
      'tc-01',
      'tc-03',
    ]);
    expect(await ids({ sort_by: [{ field: 'score', direction: 'asc' }] })).toEqual([
      'tc-01',
      'tc-06',
      'tc-04',
      'tc-02',
      'tc-05',
      'tc-03',
    ]);
    expect(await ids({ sort_by: [{ field: 'score', direction: 'desc' }] })).toEqual([
      'tc-05',
      'tc-02',
      'tc-04',
      'tc-06',
      'tc-01',
      'tc-03',
    ]);
    expect(await ids({ sort_by: [{ field: 'datetime' }] })).toEqual([
      'tc-01',
      'tc-02',
      'tc-06',
      'tc-03',
      'tc-05',
      'tc-04',
    ]);
    expect(await ids({ sort_by: [{ field: 'area' }] })).toEqual([
      'tc-01',
      'tc-02',
      'tc-03',
      'tc-04',
      'tc-05',
      'tc-06',
    ]);
    expect(await ids({ sort_by: [{ field: 'id', direction: 'desc' }], limit: 2 })).toEqual([
      'tc-06',
      'tc-05',
    ]);
  });

  it('reads property names of Object.prototype as plain names, never as inherited members', async () => {
    // These answered 500: the column lookup found `Object.prototype.constructor` and put its text in SQL.
    expect(await ids({ query: { constructor: { eq: 7 } } })).toEqual(['tc-04']);
    expect(await ids({ query: { 'properties.constructor': { gte: 7 } } })).toEqual(['tc-04']);
    expect(await ids({ query: { toString: { eq: 1 } } })).toEqual([]);
    expect(await ids({ query: { 'properties.__proto__': { eq: 1 } } })).toEqual([]);
    expect(await ids({ query: { hasOwnProperty: { neq: 'x' } } })).toEqual([]);
    const all = ['tc-01', 'tc-02', 'tc-03', 'tc-04', 'tc-05', 'tc-06'];
    expect(await ids({ sort_by: [{ field: 'toString', direction: 'asc' }] })).toEqual(all);
    expect(await ids({ sort_by: [{ field: '__proto__', direction: 'desc' }] })).toEqual(all);
    expect(await ids({ sort_by: [{ field: 'constructor', direction: 'desc' }] })).toEqual([
      'tc-04',
      ...all.filter((id) => id !== 'tc-04'),
    ]);
  });

  it("never shows another organisation's records", async () => {
    expect(await ids({}, t.otherKey)).toEqual(['tc-other']);
    expect(await ids({ order_ids: ['ord-1'] }, t.otherKey)).toEqual(['tc-other']);
    expect(await ids({ ids: ['tc-01'] }, t.otherKey)).toEqual([]);
    expect(await ids({ ids: ['tc-other'] })).toEqual([]);
  });

  it('rejects bad input with the field path, and missing keys with 401', async () => {
    const cases: Array<[object, string]> = [
      [{ bbox: [1, 2, 3] }, 'bbox'],
      [{ bbox: [0, -95, 1, 1] }, 'bbox.1'],
      [{ bbox: [0, 0, 1, 1], intersects: { type: 'Point', coordinates: [0, 0] } }, 'intersects'],
      [{ intersects: { type: 'Circle', coordinates: [0, 0] } }, 'intersects.type'],
      [{ datetime: 'yesterday' }, 'datetime'],
      [{ ids: [] }, 'ids'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 1001 }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ query: { 'eo:cloud_cover': { like: 3 } } }, 'query.eo:cloud_cover'],
      [{ query: { created: { gt: 5 } } }, 'query.created.gt'],
      [{ sort_by: [{ field: 'x', direction: 'up' }] }, 'sort_by.0.direction'],
      [{ colour: 'blue' }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const err = res.json().error;
      expect(err.code).toBe('validation_failed');
      if (path)
        expect(
          err.details.map((d: { path: string }) => d.path),
          JSON.stringify(body),
        ).toContain(path);
    }
    expect(
      (await t.call({ method: 'POST', url: '/v0/catalogs/search', payload: {}, key: null }))
        .statusCode,
    ).toBe(401);
  });
});
