/**
 * Against the real service: AOIs, AOI assets, visualizations and jobs (on main since h/aois).
 * The demo seed has no archive scenes yet (they land with the catalog), so an AOI cannot be
 * created here: these tests cover listing, the service's validation and not-found answers, and
 * job creation (a job over a project without AOIs is created, failed, with val_errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/service';
import { createEoClient, EoApiError, type EoClient } from '../index';

let svc: TestService;
let client: EoClient;
const drift: unknown[] = [];
beforeAll(async () => {
  svc = await startService();
  client = createEoClient({
    baseUrl: svc.url,
    apiKey: svc.key,
    onSchemaDrift: (e) => drift.push(e),
  });
});
afterAll(async () => svc.close());

async function apiError(p: Promise<unknown>): Promise<EoApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof EoApiError) return e;
    throw e;
  }
  throw new Error('expected an EoApiError');
}

const square = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [10, 45],
      [10.1, 45],
      [10.1, 45.1],
      [10, 45.1],
      [10, 45],
    ] as Array<[number, number]>,
  ],
};

describe('AOIs', () => {
  it('lists AOIs with offset pagination (none yet) and pages over them', async () => {
    const res = await client.listAois({ project_ids: ['prj-demo-crops'], limit: 5 });
    expect(res).toEqual({ aois: [], pagination: { limit: 5, offset: 0, total: 0 } });
    const pages = [];
    for await (const p of client.pages.aois()) pages.push(p);
    expect(pages).toEqual([
      {
        items: [],
        total: 0,
        offset: 0,
        pageIndex: 0,
        end: 'empty',
        serverDateMs: expect.any(Number),
      },
    ]);
  });
  it("createAoi: the service's per-item validation details come through", async () => {
    const e = await apiError(
      client.createAoi({
        name: 'North field',
        description: 'Maize',
        satellite_id: 'sat-aurora-1',
        provider: 'aurora-archive',
        project_id: 'prj-demo-crops',
        geometry: square,
        item_ids: ['no-such-scene', 'no-such-scene'],
      }),
    );
    expect(e).toMatchObject({ status: 400, code: 'validation_failed', attempts: 1 });
    expect(e.details?.map((d) => d.path)).toEqual(['item_ids.0', 'item_ids.1']);
  });
  it('listAoiAssets of an unknown AOI is a 404 not_found', async () => {
    const e = await apiError(client.listAoiAssets('aoi_missing'));
    expect(e).toMatchObject({ status: 404, code: 'not_found', retryable: false });
    expect(e.message).toContain('aoi_missing');
  });
});

describe('visualizations', () => {
  it('on an unknown AOI: 404, not retried although it is a create', async () => {
    const events: unknown[] = [];
    const c = createEoClient({
      baseUrl: svc.url,
      apiKey: svc.key,
      onResponse: (e) => events.push(e),
    });
    const e = await apiError(
      c.createVisualization('aoi_missing', {
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: ['ast_1'],
      }),
    );
    expect(e).toMatchObject({ status: 404, code: 'not_found' });
    expect(events).toHaveLength(1);
  });
});

describe('jobs', () => {
  it('creates a job from a workflow (201): typed, with val_errors when the project has no AOIs', async () => {
    const job = await client.createJob('wf-ndvi-timeseries', { project_id: 'prj-demo-crops' });
    expect(job.workflow_id).toBe('wf-ndvi-timeseries');
    expect(job.id).toMatch(/^job/);
    expect(job.val_errors?.[0]).toMatchObject({ err: 'NO_AOIS' });
    expect(job.tasks?.length).toBeGreaterThan(0);
  });
  it('the same Idempotency-Key replays the same job', async () => {
    const a = await client.createJob(
      'wf-ndvi-timeseries',
      { project_id: 'prj-demo-floods' },
      { idempotencyKey: 'job-key-1' },
    );
    const b = await client.createJob(
      'wf-ndvi-timeseries',
      { project_id: 'prj-demo-floods' },
      { idempotencyKey: 'job-key-1' },
    );
    expect(b.id).toBe(a.id);
  });
  it('an unknown workflow is a 404; an unknown project a 400 on the query', async () => {
    const missing = await apiError(client.createJob('wf-nope', { project_id: 'prj-demo-crops' }));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    const project = await apiError(
      client.createJob('wf-ndvi-timeseries', { project_id: 'prj-other' }),
    );
    expect(project).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(project.details).toEqual([expect.objectContaining({ path: 'project_id', in: 'query' })]);
  });
});

describe('the service matches the domain schemas', () => {
  it('no response above drifted', () => {
    expect(drift).toEqual([]);
  });
});
