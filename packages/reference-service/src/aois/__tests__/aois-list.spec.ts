import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';
import { SCENES, createAoi, insertFixtureScenes } from './fixtures';

/** An app with a clock the tests move, so created_at / updated_at are known. */
let t: TestApp;
let clock = Date.parse('2024-03-01T00:00:00Z');
const at = (iso: string) => {
  clock = Date.parse(iso);
};

const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  insertFixtureScenes(t);
  at('2024-03-01T00:00:00Z');
  ids.a = (await createAoi(t, { name: 'North Field', item_ids: [SCENES.cover.id] })).aoi_id;
  at('2024-03-02T00:00:00Z');
  ids.b = (await createAoi(t, { name: 'South field 100%', item_ids: [SCENES.cover.id] })).aoi_id;
  at('2024-03-03T00:00:00Z');
  ids.c = (
    await createAoi(t, {
      name: 'Río Ésera',
      project_id: 'prj-demo-floods',
      item_ids: [SCENES.cover.id],
    })
  ).aoi_id;
  // Later, two worker steps run (the earliest due first): the first two AOIs start running,
  // so their updated_at moves on; the third's does not.
  at('2024-04-01T00:00:00Z');
  t.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
  t.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
});
afterAll(async () => t.close());

async function list(qs: string): Promise<string[]> {
  const res = await t.call({ method: 'GET', url: `/v0/aois${qs ? `?${qs}` : ''}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().aois.map((a: { aoi_id: string }) => a.aoi_id);
}

describe('GET /v0/aois', () => {
  it('lists in creation order with the spec defaults (limit 10, offset 0)', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/aois' });
    expect(res.json().pagination).toEqual({ limit: 10, offset: 0, total: 3 });
    expect(await list('')).toEqual([ids.a, ids.b, ids.c]);
    const aoi = res.json().aois[0];
    expect(aoi.created_at).toBe('2024-03-01 00:00:00.000000+00:00');
    expect(aoi.updated_at).toBe('2024-04-01 00:00:00.000000+00:00');
  });

  it('pages: limit, offset, the last partial page and past the end', async () => {
    expect(await list('limit=2')).toEqual([ids.a, ids.b]);
    expect(await list('limit=2&offset=2')).toEqual([ids.c]);
    const past = (await t.call({ method: 'GET', url: '/v0/aois?offset=5' })).json();
    expect(past).toEqual({ aois: [], pagination: { limit: 10, offset: 5, total: 3 } });
    const page = (await t.call({ method: 'GET', url: '/v0/aois?limit=1&offset=1' })).json();
    expect(page.pagination).toEqual({ limit: 1, offset: 1, total: 3 });
  });

  it('filters by aoi_id', async () => {
    expect(await list(`aoi_id=${ids.b}`)).toEqual([ids.b]);
    expect(await list('aoi_id=aoi_nope')).toEqual([]);
  });

  it('filters by aoi_name: case-insensitive substring, wildcards are literal', async () => {
    expect(await list('aoi_name=FIELD')).toEqual([ids.a, ids.b]);
    expect(await list('aoi_name=north')).toEqual([ids.a]);
    expect(await list(`aoi_name=${encodeURIComponent('100%')}`)).toEqual([ids.b]);
    expect(await list(`aoi_name=${encodeURIComponent('%')}`)).toEqual([ids.b]);
    expect(await list('aoi_name=_')).toEqual([]);
    expect(await list(`aoi_name=${encodeURIComponent('río ÉSERA')}`)).toEqual([ids.c]);
  });

  it('filters by project_ids (comma separated or repeated)', async () => {
    expect(await list('project_ids=prj-demo-floods')).toEqual([ids.c]);
    expect(await list('project_ids=prj-demo-crops,prj-demo-floods')).toEqual([ids.a, ids.b, ids.c]);
    expect(await list('project_ids=prj-demo-crops&project_ids=prj-demo-floods')).toEqual([
      ids.a,
      ids.b,
      ids.c,
    ]);
    expect(await list('project_ids=prj-other')).toEqual([]);
  });

  it('filters by created_at: instant, closed, open-start and open-end intervals', async () => {
    expect(await list('created_at=2024-03-02T00:00:00Z')).toEqual([ids.b]);
    expect(await list('created_at=2024-03-02T00:00:00Z/2024-03-03T00:00:00Z')).toEqual([
      ids.b,
      ids.c,
    ]);
    expect(await list('created_at=../2024-03-01T12:00:00Z')).toEqual([ids.a]);
    expect(await list('created_at=2024-03-01T00:00:00.000001Z/..')).toEqual([ids.b, ids.c]);
    expect(await list('created_at=2024-03-02T01:00:00%2B01:00')).toEqual([ids.b]);
  });

  it('filters by updated_at', async () => {
    expect(await list('updated_at=2024-03-15T00:00:00Z/..')).toEqual([ids.a, ids.b]);
    expect(await list('updated_at=../2024-03-15T00:00:00Z')).toEqual([ids.c]);
    expect(await list('updated_at=2024-04-01T00:00:00Z')).toEqual([ids.a, ids.b]);
  });

  it('combines filters', async () => {
    expect(
      await list('aoi_name=field&project_ids=prj-demo-crops&created_at=2024-03-02T00:00:00Z/..'),
    ).toEqual([ids.b]);
  });

  it('rejects malformed filters and bounds with the parameter path', async () => {
    for (const [qs, path] of [
      ['created_at=yesterday', 'created_at'],
      ['created_at=2024-03-02', 'created_at'],
      ['created_at=2024-03-03T00:00:00Z/2024-03-01T00:00:00Z', 'created_at'],
      ['created_at=../..', 'created_at'],
      ['updated_at=2024-03-01T00:00:00Z/', 'updated_at'],
      ['project_ids=,', 'project_ids'],
      ['aoi_name=', 'aoi_name'],
      ['aoi_id=', 'aoi_id'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['offset=-1', 'offset'],
    ] as const) {
      const res = await t.call({ method: 'GET', url: `/v0/aois?${qs}` });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.details[0].path, qs).toBe(path);
      expect(res.json().error.details[0].in).toBe('query');
    }
  });

  it('requires an API key', async () => {
    expect((await t.call({ method: 'GET', url: '/v0/aois', key: null })).statusCode).toBe(401);
  });
});
