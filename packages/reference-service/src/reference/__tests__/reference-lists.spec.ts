import { BandsetList, ProjectList, SatelliteList, WorkflowList } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, OTHER, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ scenes: 0 });
});
afterAll(async () => t.close());

const get = async (url: string, key?: string) => {
  const res = await t.call({ method: 'GET', url, key });
  return { status: res.statusCode, body: res.json() as unknown };
};

describe('reference lists (extension reads at the real service paths)', () => {
  it("GET /v0/projects lists the caller's organisation's projects, paged by page_num/page_size", async () => {
    const all = await get('/v0/projects');
    expect(all.status).toBe(200);
    const list = ProjectList.parse(all.body);
    expect(list.count).toBe(DEMO.projects.length);
    expect(list.projects.map((p) => [p.id, p.title])).toEqual(
      DEMO.projects.map((p) => [p.id, p.name]),
    );
    expect(list.projects[0]).toMatchObject({ org_id: DEMO.orgId, members_count: 2 });

    const page2 = ProjectList.parse((await get('/v0/projects?page_num=2&page_size=1')).body);
    expect(page2.projects.map((p) => p.id)).toEqual([DEMO.projects[1].id]);
    expect(page2.count).toBe(DEMO.projects.length);

    const other = ProjectList.parse((await get('/v0/projects', t.otherKey)).body);
    expect(other.projects.map((p) => p.id)).toEqual([OTHER.projectId]);
  });

  it('refuses a bad page number with the usual 400', async () => {
    const res = await get('/v0/projects?page_num=0');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('page_num');
  });

  it('GET /v0/satellites lists every satellite with all its bands (Aurora has B05)', async () => {
    const res = await get('/v0/satellites');
    expect(res.status).toBe(200);
    const sats = SatelliteList.parse(res.body).satellites;
    expect(sats.map((s) => s.id)).toEqual(['sat-aurora-1', 'sat-aurora-2', 'sat-kestrel-1']);
    const aurora = sats[0]!;
    expect(aurora.name).toBe('Aurora-1');
    expect(aurora.bands!.map((b) => b.name)).toEqual(expect.arrayContaining(['B01', 'B05', 'B11']));
    expect(aurora.collections!.map((c) => c.id)).toEqual(['col-aurora-l2a']);
  });

  it('GET /v0/bandsets lists bandsets with their bands and satellite', async () => {
    const res = await get('/v0/bandsets');
    expect(res.status).toBe(200);
    const bandsets = BandsetList.parse(res.body).bandsets;
    const rgbn = bandsets.find((b) => b.id === 'bs-aurora-rgbn')!;
    expect(rgbn).toMatchObject({ satellite_id: 'sat-aurora-1', captures: 1 });
    expect(rgbn.bands!.map((b) => b.name)).toEqual(['B02', 'B03', 'B04', 'B08']);
    expect(rgbn.name).toContain('Aurora-1');
  });

  it('GET /v0/workflows pages by offset/limit and filters by id, name and project', async () => {
    const all = WorkflowList.parse((await get('/v0/workflows')).body);
    expect(all.workflows.map((w) => w.id)).toEqual([
      'wf-ndvi-timeseries',
      'wf-change-detection',
      'wf-cloud-mask',
    ]);
    expect(all.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    const page = WorkflowList.parse((await get('/v0/workflows?offset=1&limit=1')).body);
    expect(page.workflows.map((w) => w.id)).toEqual(['wf-change-detection']);
    expect(page.pagination!.total).toBe(3);
    const byId = WorkflowList.parse((await get('/v0/workflows?id=wf-cloud-mask')).body);
    expect(byId.workflows.map((w) => w.id)).toEqual(['wf-cloud-mask']);
    const mine = WorkflowList.parse(
      (await get(`/v0/workflows?project_id=${DEMO.projects[0].id}`)).body,
    );
    expect(mine.workflows).toHaveLength(3);
    expect(mine.workflows[0]!.project_id).toBe(DEMO.projects[0].id);
    const notMine = WorkflowList.parse(
      (await get(`/v0/workflows?project_id=${OTHER.projectId}`)).body,
    );
    expect(notMine.workflows).toEqual([]);
  });

  it('needs the API key like every read', async () => {
    for (const url of ['/v0/projects', '/v0/bandsets', '/v0/satellites', '/v0/workflows']) {
      expect((await get(url, null as unknown as string)).status).toBe(401);
    }
  });

  it('appear in the OpenAPI document as extensions, with their query parameters', async () => {
    const doc = (await get('/v0/openapi.json')).body as {
      paths: Record<string, { get: { tags: string[]; parameters: Array<{ name: string }> } }>;
    };
    for (const p of ['/v0/projects', '/v0/bandsets', '/v0/satellites', '/v0/workflows']) {
      expect(doc.paths[p]!.get.tags).toEqual(['extension (not in the spec)']);
    }
    expect(doc.paths['/v0/projects']!.get.parameters.map((p) => p.name)).toEqual([
      'page_num',
      'page_size',
    ]);
    expect(doc.paths['/v0/workflows']!.get.parameters.map((p) => p.name)).toContain('project_id');
  });
});
