/**
 * Contract test against the provider's published document served by Prism (`prism.ts`): static
 * examples and data generated from the schemas with several seeds. In the provider-v0 dialect,
 * every api-client method completes without a crash, a loop or a lost error message; `eo sync`
 * and `eo outbox add` + `eo outbox flush` for every kind run through.
 *
 * Odd generated values (timestamps that are words, numbers as strings) are read leniently by
 * the mirror and counted as drift (see "Reading a real service" in README.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEoClient, EoApiError, EoClientError, type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eo } from '../../cli/__tests__/run-eo';
import { openMirrorDatabase } from '../../db/open';
import { refreshCreated } from '../../mirror/refresh-created';
import {
  aoiInput,
  CALLS,
  deliveryInput,
  FIELD_OPERATION_CALLS,
  indexInput,
  orderInput,
} from './calls';
import { startPrism, type RunningPrism } from './prism';

/** undefined: static examples; a string: `-d --seed <it>`. */
const MODES = [undefined, '1', '2', '3'] as const;
const label = (seed: string | undefined) => (seed === undefined ? 'static' : `seed ${seed}`);

const prisms = new Map<string, RunningPrism>();
const dirs: string[] = [];

beforeAll(async () => {
  // In parallel: the start wait (bounded in startPrism) is most of this file's time.
  const started = await Promise.allSettled(MODES.map((seed) => startPrism({ seed })));
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') prisms.set(label(MODES[i]), r.value);
  });
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, 90_000);

afterAll(async () => {
  await Promise.all([...prisms.values()].map((p) => p.close()));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function prism(seed: string | undefined): RunningPrism {
  const p = prisms.get(label(seed));
  if (!p) throw new Error(`Prism (${label(seed)}) is not running`);
  return p;
}

function providerClient(url: string, extra: { validateRequests?: boolean } = {}): EoClient {
  return createEoClient({
    baseUrl: url,
    apiKey: 'contract-key',
    dialect: 'provider-v0',
    timeoutMs: 10_000,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  });
}

function cliEnv(url: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-prism-contract-'));
  dirs.push(dir);
  return {
    EO_URL: url,
    EO_API_KEY: 'contract-key',
    EO_DB: path.join(dir, 'mirror.db'),
    EO_DIALECT: 'provider-v0',
  };
}

describe.each(MODES.map((seed) => [label(seed), seed] as const))('Prism, %s', (_name, seed) => {
  it('every api-client method completes: a value or a typed error with a message, never a crash or a loop', async () => {
    const client = providerClient(prism(seed).url);
    const outcomes: string[] = [];
    for (const [name, run] of CALLS) {
      try {
        await run(client);
        outcomes.push(`${name}: ok`);
      } catch (e) {
        // A typed client error naming what failed is an answer; anything else is a crash.
        if (!(e instanceof EoClientError)) throw new Error(`${name} crashed: ${String(e)}`);
        expect(e.message, name).toMatch(/\S/);
        outcomes.push(`${name}: ${e.kind}: ${e.message}`);
      }
    }
    expect(outcomes).toHaveLength(CALLS.length);
    // The examples are valid for the document: with them, nothing may fail at all.
    if (seed === undefined) expect(outcomes.filter((o) => !o.endsWith(': ok'))).toEqual([]);
  });

  it('asks the provider-v0 read-backs where the document has them', async () => {
    const client = providerClient(prism(seed).url);
    const job = await client.extensions.getJob({ id: 'job-1', workflow_id: 'wf-1' });
    expect(job).not.toBeNull();
    // Prism answers its own example ids, never the asked one: not found, not an error.
    expect(await client.extensions.getDelivery('no-such-delivery')).toBeNull();
    expect(await client.extensions.getVisualization('aoi-1', 'no-such-vis')).toBeNull();
  });

  it('the field operations: each answered by the document (a value, never a 404 or a refusal)', async () => {
    const client = providerClient(prism(seed).url);
    for (const [name, run] of FIELD_OPERATION_CALLS) {
      // null would mean "not offered" (a 404): the document has every one of them.
      const value = await run(client).catch((e: unknown) => {
        // Generated data may break a shape (a typed error); a refused request never may.
        if (e instanceof EoApiError) throw new Error(`${name}: ${e.status} ${e.message}`);
        if (!(e instanceof EoClientError)) throw e;
        return `typed error: ${e.message}`;
      });
      expect(value, name).not.toBeNull();
    }
    if (seed === undefined) {
      const x = client.extensions;
      expect(await x.ping()).toBe(true);
      expect((await x.listStores())?.[0]).toMatchObject({ type: 'S3' });
      expect((await x.estimateWorkflowCost('wf-1'))?.estimated_cost).toEqual(expect.any(Number));
      const delivery = (await x.listDeliveries())?.[0];
      expect(delivery?.target_path).toMatch(/\S/);
      expect((await x.getWorkflowJob('wf-1', 'job-1'))?.tasks).toEqual(expect.any(Array));
      // The two PUTs: a package's state, and its link once ready.
      for (const pkg of [
        await x.downloadJob('wf-1', 'job-1'),
        await x.downloadTask('wf-1', 'job-1', 'task-1'),
      ]) {
        expect(pkg).toMatchObject({ id: expect.any(String), status: expect.any(String) });
      }
    }
  });

  it('the four download operations: created in the shapes the document validates, read in any status case', async () => {
    const client = providerClient(prism(seed).url);
    const byCatalog = await client.downloads.createForCatalog({ catalog_ids: ['cat-1'] });
    const byItem = await client.downloads.createForCatalog({ order_item_ids: ['oi-1'] });
    const byAsset = await client.downloads.createForAoi('aoi-1', { asset_ids: ['asset-1'] });
    const reads = [
      await client.downloads.getForCatalog(byCatalog.id),
      await client.downloads.getForAoi('aoi-1', byAsset.id),
    ];
    for (const d of [byCatalog, byItem, byAsset, ...reads]) {
      expect(d?.id).toMatch(/\S/);
      expect(['created', 'in_progress', 'success', 'failed', 'unknown']).toContain(d?.status);
    }
    if (seed === undefined) {
      // The examples: a catalog download `success` with its link, an AOI download `SUCCESS`.
      expect(byCatalog).toMatchObject({ status: 'success', signedUrl: 'http://signed_url_link' });
      expect(reads[1]).toMatchObject({ status: 'success', rawStatus: 'SUCCESS' });
    }
    // Our spec's shape (one list) is refused by the document: the profile is what makes it pass.
    const spec = createEoClient({
      baseUrl: prism(seed).url,
      apiKey: 'contract-key',
      retry: { maxAttempts: 1 },
    });
    const err = await spec.downloads
      .createForCatalog({ catalog_ids: ['cat-1'] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EoApiError);
    expect((err as EoApiError).status).toBeGreaterThanOrEqual(400);
  });

  it('reads the reference lists at the paths the document has them (never a 404 there)', async () => {
    const client = providerClient(prism(seed).url);
    const lists = await Promise.all([
      client.extensions.listProjects(),
      client.extensions.listBandsets(),
      client.extensions.listSatellites(),
      client.extensions.listWorkflows({ project_id: 'prj-1' }),
    ]);
    for (const list of lists) expect(Array.isArray(list)).toBe(true);
  });

  it('a request in our spec shape is refused by the document (400), as a typed error naming the endpoint', async () => {
    const spec = createEoClient({
      baseUrl: prism(seed).url,
      apiKey: 'contract-key',
      retry: { maxAttempts: 1 },
    });
    const err = await spec
      .searchSatelliteImages({ satellite: { collection_id: 'c', satellite_id: 's' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EoApiError);
    expect((err as EoApiError).status).toBe(400);
    expect((err as EoApiError).message).toContain('POST /v0/search');
  });

  // The service's error body `{ error: { code, message, details } }` with `details` null or an
  // object: its code and words reach the caller.
  it("a 4xx answer surfaces the service's own code and message", async () => {
    const client = providerClient(prism(seed).url, { validateRequests: false });
    const noUsecase = {
      order_items: [{ ...orderInput.order_items[0], usecase: undefined }],
    };
    const err = await client.createOrder(noUsecase as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EoApiError);
    const body = (err as EoApiError).body as { error: { code: string; message: string } };
    expect((err as EoApiError).code).toBe(body.error.code);
    expect((err as EoApiError).message).toContain(body.error.message);
  });

  it('eo outbox add + flush: every kind is sent, references resolved in the provider shape', async () => {
    const env = cliEnv(prism(seed).url);
    const add = async (kind: string, input: unknown) => {
      const r = await eo(['outbox', 'add', kind, '--json', JSON.stringify(input)], { env });
      expect(r.stderr, kind).toBe('');
      expect(r.code, kind).toBe(0);
      return (JSON.parse(r.stdout) as { id: string }).id;
    };
    await add('order', orderInput);
    const aoi = await add('aoi', aoiInput);
    const index = await add('index', indexInput);
    await add('visualization', {
      aoi_id: `local:${aoi}`,
      index_id: `local:${index}`,
      src_asset_ids: [`local:${aoi}#scenes`],
    });
    await add('delivery', deliveryInput);
    await add('job', { workflow_id: 'wf-1', project_id: 'prj-1' });

    const flush = await eo(['outbox', 'flush'], { env });
    const entries = JSON.parse((await eo(['outbox', 'list'], { env })).stdout) as Array<{
      kind: string;
      state: string;
      lastError: { message: string } | null;
    }>;
    // Generated data may list the AOI with no mosaic or STAC item yet: then the visualization
    // waits (queued, saying why) rather than failing; everything else is sent.
    const vis = entries.find((e) => e.kind === 'visualization')!;
    const visSent = vis.state === 'sent';
    if (!visSent) {
      expect(vis.state).toBe('queued');
      expect(vis.lastError?.message).toMatch(/has no mosaic or stac_item asset yet/);
      expect(flush.stderr).toContain('has no mosaic or stac_item asset yet');
      expect(flush.code).toBe(1);
    } else {
      expect(flush.stderr).toBe('');
      expect(flush.code).toBe(0);
    }
    expect(JSON.parse(flush.stdout)).toMatchObject({
      sent: visSent ? 6 : 5,
      failed: 0,
      blocked: 0,
    });
    expect(entries.filter((e) => e.kind !== 'visualization').map((e) => [e.kind, e.state])).toEqual(
      ['order', 'aoi', 'index', 'delivery', 'job'].map((k) => [k, 'sent']),
    );
    // The examples list a mosaic: there it is sent.
    if (seed === undefined) expect(visSent).toBe(true);

    // What was created is followed through the provider's reads (a job under its workflow).
    const local = openMirrorDatabase(env.EO_DB);
    try {
      const report = await refreshCreated({
        sqlite: local.sqlite,
        client: providerClient(prism(seed).url),
      });
      // The created job, at least, is not final in any of the answers: it is asked again.
      expect(report.checked).toBeGreaterThan(0);
    } finally {
      local.close();
    }
  });

  it("eo outbox add tells the user what the profile needs, in the entry's own words; nothing queued", async () => {
    const env = cliEnv(prism(seed).url);
    const noUsecase = { order_items: [{ ...orderInput.order_items[0], usecase: undefined }] };
    const add = await eo(['outbox', 'add', 'order', '--json', JSON.stringify(noUsecase)], { env });
    // Checked when queued (the profile's own rules), not found out at the service later.
    expect(add.code).toBe(2);
    expect(add.stderr).toContain('order_items.0.usecase');
    expect(add.stderr).toContain('usecase is required by this service');
    expect(JSON.parse((await eo(['outbox', 'list'], { env })).stdout)).toEqual([]);
  });

  // Generated records carry timestamps such as "laboris ex ullamco": stored, flagged and counted
  // as drift, never a failed pass.
  it('eo sync completes: every resource ends, nothing crashes', async () => {
    const env = cliEnv(prism(seed).url);
    const r = await eo(['sync', '--progress', 'off'], { env });
    // Warnings only (drift, passes short of the service's total), never an error.
    for (const line of r.stderr.split('\n').filter(Boolean)) {
      expect(line).toMatch(
        /differ from the spec|incomplete|fewer|not indexed|could not be indexed/,
      );
    }
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      resources: Array<{ resource: string; state: string; lastError: unknown }>;
      reference: { read: Record<string, number>; absent: string[]; failed: unknown[] };
    };
    // The reference lists are read at the document's paths, as the desktop reads them.
    expect(report.reference).toMatchObject({ absent: [], failed: [] });
    expect(Object.keys(report.reference.read).sort()).toEqual([
      'bandset',
      'project',
      'satellite',
      'store',
      'workflow',
    ]);
    for (const res of report.resources) {
      expect(res.lastError, res.resource).toBeNull();
      // 'complete' today; helper B's honest paging may make a capped pass 'incomplete'.
      expect(['complete', 'incomplete'], res.resource).toContain(res.state);
    }
  });

  // The document pages satellite search by a cursor the pager does not follow: one request is
  // the whole pass, so a search whose total says more ends `incomplete`, never a loop; a body the
  // document refuses (no geometry or dates) fails that search alone, with the service's words.
  it('eo sync --archive-file: each saved search ends complete, incomplete or failed with a message', async () => {
    const env = cliEnv(prism(seed).url);
    const dir = path.dirname(env.EO_DB);
    const area = {
      type: 'Polygon',
      coordinates: [
        [
          [11, 44],
          [12, 44],
          [12, 45],
          [11, 45],
          [11, 44],
        ],
      ],
    };
    const file = path.join(dir, 'archive.json');
    fs.writeFileSync(
      file,
      JSON.stringify([
        {
          id: 'full',
          name: 'Every field the document requires',
          search: {
            satellite: { collection_id: 'col-1', satellite_id: 'sat-1' },
            start_date: '2023-04-18T11:56:49.865Z',
            end_date: '2023-05-03T11:56:49.865Z',
            filters: [{ id: 'eo:cloud_cover', min: 0, max: 30 }],
            geometry: area,
          },
          maxScenes: 50,
        },
        {
          id: 'bare',
          name: 'Satellite only',
          search: { satellite: { collection_id: 'col-1', satellite_id: 'sat-1' } },
        },
      ]),
    );
    const r = await eo(
      ['sync', '--progress', 'off', '--resources', 'orders', '--archive-file', file],
      {
        env,
      },
    );
    for (const line of r.stderr.split('\n').filter(Boolean))
      expect(line).toMatch(/differ from the spec|incomplete|unreadable fields|archive: .*failed/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      archive: {
        searches: Array<{ searchId: string; state: string; error?: { message: string } }>;
      };
    };
    expect(report.archive.searches.map((x) => x.searchId)).toEqual(['full', 'bare']);
    for (const x of report.archive.searches) {
      expect(['complete', 'incomplete', 'failed'], x.searchId).toContain(x.state);
      if (x.state === 'failed') expect(x.error?.message, x.searchId).toMatch(/\S/);
    }
    // Every field the document asks for: the examples answer it.
    if (seed === undefined)
      expect(
        report.archive.searches[0]!.state,
        JSON.stringify(report.archive.searches[0]),
      ).not.toBe('failed');
    const status = await eo(['status', '--format', 'json'], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toHaveProperty('archive.searches', 2);
  });
});
