import { ArchiveFeatureCollection } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutSignatures } from '../../__tests__/signed-urls';
import { createTestApp, DEMO, OTHER, type TestApp } from '../../testing/harness';
import { makeArchiveInserter, sceneFeature, type ArchiveSceneRow } from '../repository';

let t: TestApp;
let auroraTotal: number;
beforeAll(async () => {
  t = await createTestApp();
  auroraTotal = (
    t.app.ctx.sqlite
      .prepare("SELECT count(*) AS n FROM archive_scenes WHERE collection_id = 'col-aurora-l2a'")
      .get() as { n: number }
  ).n;
});
afterAll(async () => t.close());

const url = (q = '', cid = 'col-aurora-l2a') => `/v0/archives/collections/${cid}/items${q}`;

const ARCHIVE_KEYS = [
  'altitude',
  'eo:cloud_cover',
  'gsd',
  'rd:anomalous_pixels',
  'rd:earth_sun_distance',
  'view:off_nadir',
  'view:scene_center_lat',
  'view:scene_center_lon',
  'view:sun_azimuth',
  'view:sun_elevation',
  'constellation',
  'created',
  'datetime',
  'description',
  'license',
  'platform',
  'proj:code',
  'rd:product_level',
  'rd:sat_id',
  'rd:type',
  'sci:doi',
  'startdatetime',
  'title',
  'updated',
  'instruments',
  'proj:shape',
  'proj:transform',
];

describe('GET /v0/archives/collections/{cid}/items', () => {
  it('answers a STAC FeatureCollection, newest first, with the default limit 10', async () => {
    const res = await t.call({ method: 'GET', url: url() });
    expect(res.statusCode).toBe(200);
    const fc = res.json();
    expect(ArchiveFeatureCollection.safeParse(fc).success).toBe(true);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(10);
    expect(fc.numberMatched).toBe(auroraTotal);
    expect(fc.numberReturned).toBe(10);
    const times = fc.features.map((f: { properties: { datetime: string } }) =>
      Date.parse(f.properties.datetime),
    );
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const f of fc.features) {
      expect(f.type).toBe('Feature');
      expect(f.collection).toBe('col-aurora-l2a');
      expect(f.stac_version).toBe('1.0.0');
      for (const k of ARCHIVE_KEYS) expect(f.properties, k).toHaveProperty([k]);
      expect(f.properties.title).toBe(f.id);
      expect(f.assets.B04.href).toContain(f.id);
      expect(f.links.map((l: { rel: string }) => l.rel)).toEqual(['collection', 'root']);
      expect(f.links[0].href).toBe(url());
    }
    expect(fc.links).toEqual([
      { rel: 'self', href: url('?limit=10&offset=0'), type: 'application/geo+json' },
      { rel: 'next', href: url('?limit=10&offset=10'), type: 'application/geo+json' },
    ]);
  });

  it('pages with limit and offset without overlap, and the last page has no next link', async () => {
    const a = (await t.call({ method: 'GET', url: url('?limit=7&offset=0') })).json();
    const b = (await t.call({ method: 'GET', url: url('?limit=7&offset=7') })).json();
    const ids = [...a.features, ...b.features].map((f: { id: string }) => f.id);
    expect(new Set(ids).size).toBe(14);
    expect(b.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'next', 'prev']);
    const lastOffset = auroraTotal - 3;
    const last = (
      await t.call({ method: 'GET', url: url(`?limit=10&offset=${lastOffset}`) })
    ).json();
    expect(last.features).toHaveLength(3);
    expect(last.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'prev']);
    const beyond = (await t.call({ method: 'GET', url: url(`?offset=${auroraTotal + 5}`) })).json();
    expect(beyond.features).toEqual([]);
    expect(beyond.numberMatched).toBe(auroraTotal);
    const all = (await t.call({ method: 'GET', url: url('?limit=1000') })).json();
    expect(all.features).toHaveLength(auroraTotal);
  });

  it('lists each collection separately', async () => {
    const k = (
      await t.call({ method: 'GET', url: url('?limit=1000', 'col-kestrel-ortho') })
    ).json();
    expect(k.features.length).toBeGreaterThan(0);
    expect(
      k.features.every((f: { collection: string }) => f.collection === 'col-kestrel-ortho'),
    ).toBe(true);
    expect(k.features[0].properties.platform).toBe('kestrel-1');
  });

  it('rejects out-of-range limit and offset with the parameter path', async () => {
    for (const [q, p] of [
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?limit=abc', 'limit'],
      ['?offset=-1', 'offset'],
      ['?colour=blue', ''],
    ] as const) {
      const res = await t.call({ method: 'GET', url: url(q) });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      if (p) expect(res.json().error.details[0].path).toBe(p);
    }
  });

  it('answers 404 for an unknown collection and 401 without a valid key', async () => {
    const res = await t.call({ method: 'GET', url: url('', 'col-nope') });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect((await t.call({ method: 'GET', url: url(), key: null })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: url(), key: 'eok_wrong' })).statusCode).toBe(401);
  });

  it('counts scenes added after a first listing (seeding more)', async () => {
    const before = (await t.call({ method: 'GET', url: url('?limit=1') })).json();
    const row = t.app.ctx.sqlite
      .prepare("SELECT * FROM archive_scenes WHERE collection_id = 'col-aurora-l2a' LIMIT 1")
      .get() as ArchiveSceneRow;
    const f = sceneFeature(row);
    makeArchiveInserter(t.app.ctx.sqlite)(
      {
        ...f,
        id: 'AUR1_NEWEST',
        properties: { ...f.properties, datetime: '2030-01-01T00:00:00Z' },
      },
      row.satellite_id,
    );
    const after = (await t.call({ method: 'GET', url: url('?limit=1') })).json();
    expect(after.numberMatched).toBe(before.numberMatched + 1);
    expect(after.features[0].id).toBe('AUR1_NEWEST');
    t.app.ctx.sqlite.prepare("DELETE FROM archive_scenes WHERE id = 'AUR1_NEWEST'").run();
  });

  it('shows the same global archive to every organisation', async () => {
    const mine = (await t.call({ method: 'GET', url: url() })).json();
    const theirs = (await t.call({ method: 'GET', url: url(), key: t.otherKey })).json();
    // The same scenes; only the quicklook URLs differ, each issued to the organisation asking.
    expect(JSON.stringify(mine)).toContain(`&org=${DEMO.orgId}&`);
    expect(JSON.stringify(theirs)).toContain(`&org=${OTHER.orgId}&`);
    expect(withoutSignatures(theirs)).toEqual(withoutSignatures(mine));
  });
});
