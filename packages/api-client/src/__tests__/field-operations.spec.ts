/**
 * The provider's field operations (`client.extensions.ping`, `listDeliveries`, ...): against the
 * real reference service for both profiles (same paths and shapes), and against a recording
 * server for paging, a service without them (404 -> null) and envelope breakage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestHttpServer } from '../../test/http-server';
import { startService, type TestService } from '../../test/service';
import { createEoClient, EoResponseError, EoValidationError } from '../index';

let svc: TestService;
let http: TestHttpServer;
beforeAll(async () => {
  svc = await startService();
  http = await startHttpServer();
});
afterAll(async () => {
  await svc.close();
  await http.close();
});

describe('field operations against the reference service', () => {
  for (const dialect of ['spec', 'provider-v0'] as const) {
    it(`${dialect}: ping, stores, collections, search, estimate, jobs, deliveries`, async () => {
      const drift: unknown[] = [];
      const client = createEoClient({
        baseUrl: svc.url,
        apiKey: svc.key,
        dialect,
        onSchemaDrift: (d) => drift.push(d),
      });
      const x = client.extensions;
      expect(await x.ping()).toBe(true);
      expect((await x.listStores())?.map((s) => s.type)).toEqual(['S3', 'GCS', 'AZBLOB']);
      const collections = await x.listArchiveCollections();
      expect(collections?.map((c) => c.id)).toEqual(['col-aurora-l2a', 'col-kestrel-ortho']);
      expect((await x.listArchiveCollections(['col-kestrel-ortho']))?.map((c) => c.id)).toEqual([
        'col-kestrel-ortho',
      ]);
      const found = await x.searchArchive({ collections: ['col-aurora-l2a'], limit: 3 });
      expect(found?.features).toHaveLength(3);
      expect(found?.features.every((f) => f.collection === 'col-aurora-l2a')).toBe(true);

      const estimate = await x.estimateWorkflowCost('wf-cloud-mask', {
        project_id: 'prj-demo-crops',
      });
      expect(estimate?.estimated_cost).toBeGreaterThan(0);
      const job = await client.createJob('wf-cloud-mask', { project_id: 'prj-demo-crops' });
      const jobs = await x.listWorkflowJobs('wf-cloud-mask', { id: job.id });
      expect(jobs?.map((j) => j.id)).toEqual([job.id]);
      const again = await x.getWorkflowJob('wf-cloud-mask', job.id);
      expect(again?.tasks?.length).toBe(job.tasks?.length);
      // Job and task results (PUT): a signed package once the job has finished (a signed URL
      // may be root-relative: resolved against the service).
      await svc.server.app.ctx.worker.drain();
      const ready = await x.downloadJob('wf-cloud-mask', job.id);
      expect(ready).toMatchObject({ id: job.id, status: 'success' });
      const pkg = (await (await fetch(new URL(ready!.signed_url!, svc.url))).json()) as {
        job_id: string;
        tasks: Array<{ id: string; status: string; result: string }>;
      };
      expect(pkg.job_id).toBe(job.id);
      expect(pkg.tasks.map((t) => t.id)).toEqual(job.tasks?.map((t) => t.id));
      const task = job.tasks![0]!;
      const one = await x.downloadTask('wf-cloud-mask', job.id, task.id);
      expect(one).toMatchObject({ id: task.id, job_id: job.id, status: 'success' });
      const taskPkg = (await (await fetch(new URL(one!.signed_url!, svc.url))).json()) as {
        tasks: unknown[];
      };
      expect(taskPkg.tasks).toEqual([pkg.tasks[0]]);
      // Without its signature, or under another workflow: refused, never served.
      expect((await fetch(new URL(ready!.signed_url!.split('?')[0]!, svc.url))).status).toBe(403);
      expect(await x.downloadJob('wf-ndvi-timeseries', job.id)).toBeNull();
      expect(await x.downloadTask('wf-cloud-mask', job.id, 'jt-nope')).toBeNull();
      expect(Array.isArray(await x.listDeliveries())).toBe(true);
      expect(await x.getAoi('aoi-nope')).toBeNull();
      expect(await x.getOrderItem('item-nope')).toBeNull();
      expect(await x.listVisualizations('aoi-nope')).toBeNull();
      expect(drift).toEqual([]);
    });
  }
});

describe('field operations against other services', () => {
  const client = () => createEoClient({ baseUrl: http.url, apiKey: 'eok_test' });

  it('a service without them (404) gives null, not an error', async () => {
    http.setHandler(() => ({ status: 404, json: { error: { code: 'not_found', message: 'no' } } }));
    const x = client().extensions;
    expect(await x.ping()).toBeNull();
    expect(await x.listDeliveries()).toBeNull();
    expect(await x.listStores()).toBeNull();
    expect(await x.listWorkflowJobs('wf')).toBeNull();
    expect(await x.estimateWorkflowCost('wf')).toBeNull();
    expect(await x.listArchiveCollections()).toBeNull();
    expect(await x.searchArchive({})).toBeNull();
  });

  it("pages an AOI's visualizations by offset until the total, one copy of each", async () => {
    const all = Array.from({ length: 130 }, (_, n) => ({
      id: `v${n}`,
      aoi_id: 'a1',
      status: 'SUCCESS',
    }));
    http.requests.length = 0;
    http.setHandler((req) => {
      const offset = Number(req.query.offset);
      const limit = Number(req.query.limit);
      return {
        json: {
          visualization: all.slice(offset, offset + limit),
          pagination: { limit, offset, total: all.length },
        },
      };
    });
    const got = await client().extensions.listVisualizations('a1', { index_id: 'idx 1' });
    expect(got?.map((v) => v.id)).toEqual(all.map((v) => v.id));
    expect(http.requests.map((r) => `${r.path}?${r.search}`)).toEqual([
      '/v0/aois/a1/visualizations?index_id=idx%201&offset=0&limit=100',
      '/v0/aois/a1/visualizations?index_id=idx%201&offset=100&limit=100',
    ]);
  });

  it('filters deliveries by the ids given, and skips entries without an id', async () => {
    http.requests.length = 0;
    http.setHandler(() => ({
      json: { deliveries: [{ delivery_id: 'd1', status: 'SUCCESS' }, { status: 'x' }, 'junk'] },
    }));
    const got = await client().extensions.listDeliveries({ order_item_id: 'oi 1' });
    expect(got?.map((d) => d.delivery_id)).toEqual(['d1']);
    expect(http.requests[0]!.search).toBe('order_item_id=oi%201');
  });

  it('a body without its list key is envelope breakage', async () => {
    http.setHandler(() => ({ json: { items: [] } }));
    await expect(client().extensions.listStores()).rejects.toBeInstanceOf(EoResponseError);
    await expect(client().extensions.listVisualizations('a1')).rejects.toBeInstanceOf(
      EoResponseError,
    );
  });

  it('refuses a search body the schema refuses before sending it', async () => {
    http.requests.length = 0;
    await expect(client().extensions.searchArchive({ bbox: [10, 0, 5, 1] })).rejects.toBeInstanceOf(
      EoValidationError,
    );
    expect(http.requests).toHaveLength(0);
  });
});
