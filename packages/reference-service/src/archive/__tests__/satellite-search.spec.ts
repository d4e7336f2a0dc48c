import type { Geometry } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutSignatures } from '../../__tests__/signed-urls';
import { createTestApp, OTHER, type TestApp } from '../../testing/harness';
import { makeArchiveInserter, sceneFeature, type ArchiveSceneRow } from '../repository';
import { lastSatelliteSearchPlan } from '../satellite-search';

let t: TestApp;
let scenes: Array<ReturnType<typeof sceneFeature> & { satellite: string }>;
beforeAll(async () => {
  t = await createTestApp();
  const rows = t.app.ctx.sqlite.prepare('SELECT * FROM archive_scenes').all() as ArchiveSceneRow[];
  scenes = rows.map((r) => ({ ...sceneFeature(r), satellite: r.satellite_id }));
});
afterAll(async () => t.close());

const AURORA1 = { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' };
const search = (body: unknown, key?: string) =>
  t.call({ method: 'POST', url: '/v0/search', payload: body as object, ...(key ? { key } : {}) });
const ofSat = (sat: string) => scenes.filter((s) => s.satellite === sat);
const newestFirst = (list: typeof scenes) =>
  [...list].sort(
    (a, b) => Date.parse(String(b.properties.datetime)) - Date.parse(String(a.properties.datetime)),
  );

describe('POST /v0/search', () => {
  it("returns the satellite's scenes newest first with skip-based pagination (defaults 0 and 10)", async () => {
    const res = await search({ satellite: AURORA1 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const expected = newestFirst(ofSat('sat-aurora-1'));
    expect(body.pagination).toEqual({ limit: 10, skip: 0, total: expected.length });
    expect(body.items.type).toBe('FeatureCollection');
    expect(body.items.features.map((f: { id: string }) => f.id)).toEqual(
      expected.slice(0, 10).map((s) => s.id),
    );
    expect(body.items.features[0].properties['rd:sat_id']).toBe('sat-aurora-1');
    expect(body.items.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'next']);
    expect(body.items.links[1]).toMatchObject({
      href: '/v0/search',
      method: 'POST',
      body: { satellite: AURORA1, skip: 10, limit: 10 },
    });
  });

  it('pages with skip and limit; the last page has no next link', async () => {
    const total = ofSat('sat-aurora-1').length;
    const page = (await search({ satellite: AURORA1, skip: total - 2, limit: 5 })).json();
    expect(page.items.features).toHaveLength(2);
    expect(page.pagination).toEqual({ limit: 5, skip: total - 2, total });
    expect(page.items.links.map((l: { rel: string }) => l.rel)).toEqual(['self']);
    const beyond = (await search({ satellite: AURORA1, skip: total + 1 })).json();
    expect(beyond.items.features).toEqual([]);
  });

  it('filters by acquisition window (inclusive ends)', async () => {
    const sorted = newestFirst(ofSat('sat-aurora-1'));
    const from = String(sorted[20]!.properties.datetime);
    const to = String(sorted[5]!.properties.datetime);
    const body = (
      await search({ satellite: AURORA1, start_date: from, end_date: to, limit: 100 })
    ).json();
    expect(body.items.features.map((f: { id: string }) => f.id)).toEqual(
      sorted.slice(5, 21).map((s) => s.id),
    );
    const onlyStart = (await search({ satellite: AURORA1, start_date: to, limit: 100 })).json();
    expect(onlyStart.pagination.total).toBe(6);
  });

  it('filters numeric properties by min and max, indexed or not', async () => {
    const all = ofSat('sat-aurora-1');
    const clear = all.filter((s) => s.properties['eo:cloud_cover']! <= 20);
    const r1 = (
      await search({
        satellite: AURORA1,
        filters: [{ id: 'eo:cloud_cover', max: 20 }],
        limit: 1000,
      })
    ).json();
    expect(r1.pagination.total).toBe(clear.length);
    const lat = all.filter(
      (s) =>
        s.properties['view:scene_center_lat']! >= 0 && s.properties['view:scene_center_lat']! <= 50,
    );
    const r2 = (
      await search({
        satellite: AURORA1,
        filters: [{ id: 'view:scene_center_lat', min: 0, max: 50 }],
        limit: 1000,
      })
    ).json();
    expect(r2.items.features.map((f: { id: string }) => f.id).sort()).toEqual(
      lat.map((s) => s.id).sort(),
    );
    const both = (
      await search({
        satellite: AURORA1,
        filters: [
          { id: 'eo:cloud_cover', max: 20 },
          { id: 'view:scene_center_lat', min: 0, max: 50 },
        ],
        limit: 1000,
      })
    ).json();
    expect(both.pagination.total).toBe(clear.filter((s) => lat.includes(s)).length);
  });

  it('keeps scenes whose footprint meets the geometry, exactly (not by bounding box)', async () => {
    // A thin diagonal footprint whose bounding box covers the query point but which does not.
    const insert = makeArchiveInserter(t.app.ctx.sqlite);
    const base = sceneFeature(
      t.app.ctx.sqlite
        .prepare("SELECT * FROM archive_scenes WHERE satellite_id = 'sat-kestrel-1' LIMIT 1")
        .get() as ArchiveSceneRow,
    );
    const diagonal: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [100, 10],
          [100.1, 10],
          [101, 10.9],
          [101, 11],
          [100.9, 11],
          [100, 10.1],
          [100, 10],
        ],
      ],
    };
    insert(
      {
        ...base,
        id: 'KES1_TEST_DIAGONAL',
        geometry: diagonal,
        bbox: [100, 10, 101, 11],
        properties: { ...base.properties, datetime: '2024-01-01T00:00:00Z' },
      },
      'sat-kestrel-1',
    );
    const sat = { collection_id: 'col-kestrel-ortho', satellite_id: 'sat-kestrel-1' };
    const on = (
      await search({ satellite: sat, geometry: { type: 'Point', coordinates: [100.5, 10.5] } })
    ).json();
    expect(on.items.features.map((f: { id: string }) => f.id)).toEqual(['KES1_TEST_DIAGONAL']);
    const off = (
      await search({ satellite: sat, geometry: { type: 'Point', coordinates: [100.8, 10.2] } })
    ).json();
    expect(off.items.features).toEqual([]);
    expect(off.pagination.total).toBe(0);
    const square = (w: number, s: number, e: number, n: number) => ({
      type: 'Polygon',
      coordinates: [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ],
    });
    const corner = (
      await search({ satellite: sat, geometry: square(100.99, 10.99, 101.2, 11.2) })
    ).json();
    expect(corner.items.features.map((f: { id: string }) => f.id)).toEqual(['KES1_TEST_DIAGONAL']);
    const inBoxOnly = (
      await search({ satellite: sat, geometry: square(100.7, 10.1, 100.9, 10.3) })
    ).json();
    expect(inBoxOnly.pagination.total).toBe(0);
  });

  it('finds generated scenes by a polygon around their centre', async () => {
    const target = ofSat('sat-aurora-2')[0]!;
    const lon = target.properties['view:scene_center_lon']!;
    const lat = target.properties['view:scene_center_lat']!;
    const body = (
      await search({
        satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-2' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [lon - 0.01, lat - 0.01],
              [lon + 0.01, lat - 0.01],
              [lon + 0.01, lat + 0.01],
              [lon - 0.01, lat + 0.01],
              [lon - 0.01, lat - 0.01],
            ],
          ],
        },
      })
    ).json();
    expect(body.items.features.map((f: { id: string }) => f.id)).toContain(target.id);
    for (const f of body.items.features) expect(f.properties['rd:sat_id']).toBe('sat-aurora-2');
  });

  it('rejects unknown or mismatched satellites and unknown filter properties with a path', async () => {
    const cases: Array<[unknown, string]> = [
      [
        { satellite: { collection_id: 'col-x', satellite_id: 'sat-aurora-1' } },
        'satellite.collection_id',
      ],
      [
        { satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-x' } },
        'satellite.satellite_id',
      ],
      [
        { satellite: { collection_id: 'col-kestrel-ortho', satellite_id: 'sat-aurora-1' } },
        'satellite.satellite_id',
      ],
      [
        {
          satellite: AURORA1,
          filters: [
            { id: 'eo:cloud_cover', max: 5 },
            { id: 'colour', min: 1 },
          ],
        },
        'filters.1.id',
      ],
      [{ satellite: AURORA1, filters: [{ id: 'platform', min: 1 }] }, 'filters.0.id'],
      // Names of Object.prototype members are unknown properties too (they answered 500).
      [{ satellite: AURORA1, filters: [{ id: 'constructor', min: 1 }] }, 'filters.0.id'],
      [{ satellite: AURORA1, filters: [{ id: '__proto__', max: 1 }] }, 'filters.0.id'],
      [{ satellite: AURORA1, filters: [{ id: 'gsd' }] }, 'filters.0'],
      [{ satellite: AURORA1, filters: [{ id: 'gsd', min: 5, max: 1 }] }, 'filters.0.max'],
      [{ satellite: AURORA1, skip: -1 }, 'skip'],
      [{ satellite: AURORA1, limit: 0 }, 'limit'],
      [{ satellite: AURORA1, limit: 1001 }, 'limit'],
      [{ satellite: AURORA1, start_date: 'yesterday' }, 'start_date'],
      [
        {
          satellite: AURORA1,
          start_date: '2024-02-01T00:00:00Z',
          end_date: '2024-01-01T00:00:00Z',
        },
        'end_date',
      ],
      [
        {
          satellite: AURORA1,
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 1],
              ],
            ],
          },
        },
        'geometry',
      ],
      [{}, 'satellite'],
    ];
    for (const [body, path] of cases) {
      const res = await search(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const err = res.json().error;
      expect(err.code).toBe('validation_failed');
      expect(
        err.details.map((d: { path: string }) => d.path).join(' '),
        JSON.stringify(body),
      ).toContain(path);
    }
  });

  it('needs a key, and answers every organisation from the same archive', async () => {
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/v0/search',
          payload: { satellite: AURORA1 },
          key: null,
        })
      ).statusCode,
    ).toBe(401);
    const mine = (await search({ satellite: AURORA1 })).json();
    const theirs = (await search({ satellite: AURORA1 }, t.otherKey)).json();
    // The same scenes; only the quicklook URLs differ, each issued to the organisation asking.
    expect(JSON.stringify(theirs)).toContain(`&org=${OTHER.orgId}&`);
    expect(withoutSignatures(theirs)).toEqual(withoutSignatures(mine));
  });
});

describe('satellite search query plans', () => {
  const explain = (sql: string, params: Record<string, unknown>) =>
    (t.app.ctx.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('\n');

  it('drives a geometry search from the R*Tree and a plain one from the satellite index', async () => {
    await search({
      satellite: AURORA1,
      geometry: { type: 'Point', coordinates: [10, 45] },
      filters: [{ id: 'eo:cloud_cover', max: 30 }],
    });
    const spatial = lastSatelliteSearchPlan()!;
    for (const sql of [spatial.sql.count, spatial.sql.page]) {
      const plan = explain(sql, spatial.params);
      expect(plan).toMatch(/VIRTUAL TABLE INDEX/);
      expect(plan).not.toMatch(/SCAN s\b/);
    }
    await search({ satellite: AURORA1, start_date: '2024-01-01T00:00:00Z' });
    const plain = lastSatelliteSearchPlan()!;
    const plan = explain(plain.sql.page, plain.params);
    expect(plan).toMatch(/archive_satellite_dt|archive_collection_dt/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});

describe('satellite search against a plain filter of the archive', () => {
  it('returns what filtering every scene in JS returns, for random requests', async () => {
    const { geometryIntersects } = await import('@eo/domain');
    const fc = (await import('fast-check')).default;
    const sats = [
      { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
      { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-2' },
      { collection_id: 'col-kestrel-ortho', satellite_id: 'sat-kestrel-1' },
    ];
    const generated = scenes.filter((s) => !s.id.includes('TEST'));
    const times = generated.map((s) => String(s.properties.datetime)).sort();
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            satellite: fc.constantFrom(...sats),
            start_date: fc.constantFrom(...times),
            end_date: fc.constantFrom(...times),
            cloudMax: fc.integer({ min: 0, max: 100 }),
            latMin: fc.integer({ min: -60, max: 60 }),
            box: fc.tuple(
              fc.integer({ min: -180, max: 120 }),
              fc.integer({ min: -60, max: 50 }),
              fc.integer({ min: 5, max: 60 }),
            ),
          },
          { requiredKeys: ['satellite'] },
        ),
        async (r) => {
          const body: Record<string, unknown> = { satellite: r.satellite, limit: 1000 };
          if (r.start_date) body.start_date = r.start_date;
          if (r.end_date && (!r.start_date || r.end_date >= r.start_date))
            body.end_date = r.end_date;
          const filters = [];
          if (r.cloudMax !== undefined) filters.push({ id: 'eo:cloud_cover', max: r.cloudMax });
          if (r.latMin !== undefined) filters.push({ id: 'view:scene_center_lat', min: r.latMin });
          if (filters.length) body.filters = filters;
          let geometry: Geometry | undefined;
          if (r.box) {
            const [w, s, size] = r.box;
            geometry = {
              type: 'Polygon',
              coordinates: [
                [
                  [w, s],
                  [w + size, s],
                  [w + size, s + size],
                  [w, s + size],
                  [w, s],
                ],
              ],
            };
            body.geometry = geometry;
          }
          const expected = generated
            .filter((s) => s.satellite === r.satellite.satellite_id)
            .filter(
              (s) => !body.start_date || String(s.properties.datetime) >= String(body.start_date),
            )
            .filter((s) => !body.end_date || String(s.properties.datetime) <= String(body.end_date))
            .filter(
              (s) => r.cloudMax === undefined || s.properties['eo:cloud_cover']! <= r.cloudMax,
            )
            .filter(
              (s) => r.latMin === undefined || s.properties['view:scene_center_lat']! >= r.latMin,
            )
            .filter((s) => !geometry || geometryIntersects(s.geometry as Geometry, geometry))
            .map((s) => s.id)
            .sort();
          const res = await search(body);
          expect(res.statusCode).toBe(200);
          const got = res
            .json()
            .items.features.map((f: { id: string }) => f.id)
            .sort();
          expect(got).toEqual(expected);
          expect(res.json().pagination.total).toBe(expected.length);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});
