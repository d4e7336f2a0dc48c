/**
 * The reference lists (`client.extensions.list*`): against the real reference service in-process
 * for both profiles (same paths and shapes), and against a recording server for paging and for
 * a service without the reads (404 -> null).
 */
import { DEMO } from '@eo/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestHttpServer } from '../../test/http-server';
import { startService, type TestService } from '../../test/service';
import { createEoClient, EoResponseError } from '../index';

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

describe('reference lists against the reference service', () => {
  for (const dialect of ['spec', 'provider-v0'] as const) {
    it(`${dialect}: lists projects, bandsets, satellites with their bands, and workflows`, async () => {
      const drift: unknown[] = [];
      const client = createEoClient({
        baseUrl: svc.url,
        apiKey: svc.key,
        dialect,
        onSchemaDrift: (d) => drift.push(d),
      });
      const projects = await client.extensions.listProjects();
      expect(projects?.map((p) => p.id)).toEqual(DEMO.projects.map((p) => p.id));
      expect(projects?.[0]?.title).toBe(DEMO.projects[0].name);
      const satellites = await client.extensions.listSatellites();
      const aurora = satellites?.find((s) => s.id === 'sat-aurora-1');
      expect(aurora?.bands?.map((b) => b.name)).toEqual(
        expect.arrayContaining(['B01', 'B05', 'B11']),
      );
      const bandsets = await client.extensions.listBandsets();
      expect(bandsets?.map((b) => b.id)).toContain('bs-aurora-rgbn');
      const workflows = await client.extensions.listWorkflows({ project_id: 'prj-demo-crops' });
      expect(workflows?.map((w) => w.id)).toContain('wf-ndvi-timeseries');
      expect(drift).toEqual([]);
    });
  }
});

describe('reference lists against other services', () => {
  const client = () => createEoClient({ baseUrl: http.url, apiKey: 'eok_test' });

  it('a service without the reads (404) gives null, not an error', async () => {
    http.setHandler(() => ({ status: 404, json: { error: { code: 'not_found', message: 'no' } } }));
    const c = client();
    expect(await c.extensions.listProjects()).toBeNull();
    expect(await c.extensions.listBandsets()).toBeNull();
    expect(await c.extensions.listSatellites()).toBeNull();
    expect(await c.extensions.listWorkflows()).toBeNull();
  });

  it('pages projects by page_num until the count, and workflows by offset until the total', async () => {
    const projects = Array.from({ length: 150 }, (_, n) => ({ id: `p${n}`, title: `P ${n}` }));
    const workflows = Array.from({ length: 60 }, (_, n) => ({ id: `w${n}`, name: `W ${n}` }));
    http.requests.length = 0;
    http.setHandler((req) => {
      if (req.path === '/v0/projects') {
        const size = Number(req.query.page_size);
        const start = (Number(req.query.page_num) - 1) * size;
        return { json: { count: 150, projects: projects.slice(start, start + size) } };
      }
      const offset = Number(req.query.offset);
      const limit = Number(req.query.limit);
      return {
        json: {
          workflows: workflows.slice(offset, offset + limit),
          pagination: { limit, offset, total: 60 },
        },
      };
    });
    const c = client();
    expect((await c.extensions.listProjects())?.length).toBe(150);
    expect((await c.extensions.listWorkflows())?.map((w) => w.id)).toEqual(
      workflows.map((w) => w.id),
    );
    expect(http.requests.map((r) => `${r.path}?${r.search}`)).toEqual([
      '/v0/projects?page_num=1&page_size=100',
      '/v0/projects?page_num=2&page_size=100',
      '/v0/workflows?offset=0&limit=50',
      '/v0/workflows?offset=50&limit=50',
    ]);
  });

  it('stops on a service that ignores paging, and skips entries without an id', async () => {
    http.requests.length = 0;
    http.setHandler(() => ({
      json: { projects: Array.from({ length: 100 }, (_, n) => ({ id: `p${n}` })) },
    }));
    expect(await client().extensions.listProjects()).toHaveLength(100);
    expect(http.requests).toHaveLength(2); // the second page brought nothing new
    http.setHandler(() => ({ json: { projects: [{ name: 'no id' }, { id: 'p1' }, 'x'] } }));
    expect((await client().extensions.listProjects())?.map((p) => p.id)).toEqual(['p1']);
  });

  it('a body without its list key is envelope breakage', async () => {
    http.setHandler(() => ({ json: { items: [] } }));
    await expect(client().extensions.listSatellites()).rejects.toBeInstanceOf(EoResponseError);
  });
});
