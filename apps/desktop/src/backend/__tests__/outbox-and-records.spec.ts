/**
 * Records and the outbox of the backend against the real reference service and real SQLite:
 * the outbox offline (before any setup), across a restart, flushed by the connectivity watcher
 * and by "Submit all"; a create the service refuses and what it blocks; the quote; the mirror's
 * lists and filters after a sync; lookups.
 */
import { createEoClient, type EoClient } from '@eo/api-client';
import { deliveryIdsOf } from '@eo/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FlushResult, OutboxEntryView } from '../../shared/contract';
import {
  connectTo,
  errorOf,
  startBackend,
  startService,
  until,
  type TestBackend,
  type TestService,
} from './harness';
import {
  CROPS,
  FLOODS,
  aoiInput,
  archiveOrder,
  auroraScene,
  indexInput,
  taskingOrder,
} from './create-inputs';

let service: TestService;
let client: EoClient;
let scene: Awaited<ReturnType<typeof auroraScene>>;
beforeAll(async () => {
  service = await startService(60);
  client = createEoClient({ baseUrl: service.url, apiKey: service.key });
  scene = await auroraScene(client);
});
afterAll(async () => {
  await service?.close();
});

const connected = (t: TestBackend = startBackend()) => connectTo(t, service);

const pathsOf = (e: { details?: { issues?: Array<{ path: string }> } }) =>
  e.details?.issues?.map((i) => i.path) ?? [];

async function serviceOrderCount(): Promise<number> {
  return (await client.listOrders({ limit: 1 })).pagination.total ?? NaN;
}

describe('the outbox, from offline to the service', () => {
  let t: TestBackend;
  const startedUnconfigured = startBackend();
  const queued: Record<string, OutboxEntryView> = {};
  afterAll(async () => {
    await t?.close();
    await startedUnconfigured.close();
  });

  it('queues every kind with no service configured, refuses bad input, keeps it across a restart', async () => {
    const first = startBackend();
    expect(await errorOf(first, 'outbox.flush', {})).toMatchObject({ code: 'not_configured' });
    const enqueue = (create: Parameters<TestBackend['call']>[1]) =>
      first.call('outbox.enqueue', create as never) as Promise<OutboxEntryView>;

    queued.order = await enqueue({
      kind: 'order',
      input: taskingOrder([{ name: 'Field A' }, { name: 'Field B', project: FLOODS }]),
    });
    expect(queued.order).toMatchObject({
      kind: 'order',
      state: 'queued',
      attempts: 0,
      dependsOn: [],
      nextAttemptAt: null,
      sentAt: null,
      lastError: null,
      remoteId: null,
      summary: 'Order · 2 items: Field A, Field B',
      can: { edit: true, retry: false, cancel: true, confirm: false, resend: false },
    });
    expect(new Date(queued.order.createdAt).toISOString()).toBe(queued.order.createdAt);
    expect(Math.abs(Date.parse(queued.order.createdAt) - Date.now())).toBeLessThan(60_000);

    queued.archive = await enqueue({
      kind: 'order',
      input: archiveOrder('Vineyard archive', scene.id, scene.box),
    });
    queued.aoi = await enqueue({
      kind: 'aoi',
      input: aoiInput('Vineyard north', scene.id, scene.box),
    });
    queued.index = await enqueue({ kind: 'index', input: indexInput('NDRE') });
    queued.vis = await enqueue({
      kind: 'visualization',
      input: {
        aoi_id: `local:${queued.aoi.id}`,
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [`local:${queued.aoi.id}#scenes`],
      },
    });
    queued.delivery = await enqueue({
      kind: 'delivery',
      input: {
        deliveries: [
          {
            // The archive order's item: it completes on the service (a tasking one would not
            // for weeks, and its delivery waits for it).
            order_item_ids: [`local:${queued.archive.id}#0`],
            cloud_info: { config: 's3-default', path: 'field/batch-1' },
          },
        ],
      },
    });
    queued.job = await enqueue({
      kind: 'job',
      input: { workflow_id: 'wf-ndvi-timeseries', project_id: CROPS },
    });
    expect(queued.aoi.summary).toBe('AOI · Vineyard north');
    expect(queued.index.summary).toBe('Index · NDRE');
    expect(queued.vis.summary).toBe(
      'Visualization · idx-ndvi-aurora on AOI Vineyard north (queued)',
    );
    expect(queued.vis.dependsOn).toEqual([queued.aoi.id]);
    expect(queued.delivery.summary).toBe(
      'Delivery · order item “Vineyard archive” to field/batch-1',
    );
    expect(queued.delivery.dependsOn).toEqual([queued.archive.id]);
    expect(queued.job.summary).toBe('Job · wf-ndvi-timeseries for prj-demo-crops');
    expect(first.events.filter((e) => e.event === 'outbox.changed').map((e) => e.payload)).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((pending) => ({ pending })),
    );

    // Bad input: the contract's paths, the outbox's own checks under `input.` too.
    const item = taskingOrder([{ name: 'x' }]).order_items[0]!;
    const badName = await errorOf(first, 'outbox.enqueue', {
      kind: 'order',
      input: { order_items: [{ ...item, name: '' }] },
    });
    expect(badName.code).toBe('invalid_argument');
    expect(pathsOf(badName)).toContain('input.order_items.0.name');
    const badRefs = await errorOf(first, 'outbox.enqueue', {
      kind: 'visualization',
      input: {
        aoi_id: 'local:nope',
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: ['local:nope#scenes'],
      },
    });
    expect(badRefs.code).toBe('invalid_argument');
    expect(pathsOf(badRefs)).toEqual(['input.aoi_id', 'input.src_asset_ids.0']);
    const badItem = await errorOf(first, 'outbox.enqueue', {
      kind: 'delivery',
      input: {
        deliveries: [
          {
            order_item_ids: [`local:${queued.order.id}#2`],
            cloud_info: { config: 's3-default', path: 'x' },
          },
        ],
      },
    });
    expect(pathsOf(badItem)).toEqual(['input.deliveries.0.order_item_ids.0']);
    const dryRun = await errorOf(first, 'outbox.enqueue', {
      kind: 'order',
      input: { ...taskingOrder([{ name: 'quote' }]), dry_run: true },
    });
    expect(pathsOf(dryRun)).toEqual(['input.dry_run']);

    const before = await first.call('outbox.list');
    expect(before.entries.map((e) => e.id)).toEqual(Object.values(queued).map((e) => e.id));
    expect(before.counts).toEqual({
      queued: 7,
      sending: 0,
      sent: 0,
      failed: 0,
      blocked: 0,
      cancelled: 0,
      unconfirmed: 0,
      handed_over: 0,
    });
    const lookups = await first.call('lookups.get');
    expect(lookups.projectIds).toEqual([CROPS, FLOODS]);
    expect(lookups.workflowIds).toEqual(['wf-ndvi-timeseries']);
    // Nothing synced yet: only what the outbox shows, no names, no listed bands.
    expect(lookups.satellites).toEqual([
      {
        id: 'sat-aurora-1',
        name: null,
        bands: [],
        bandsListed: false,
        providers: [],
        collections: [],
      },
    ]);

    // A restart on the same data dir: everything is still queued, in order.
    await first.backend.close();
    t = startBackend({
      dataDir: first.dataDir,
      secrets: first.secrets,
      // The follow-up of what gets sent waits longer than this test: created.refresh is called
      // by the test, and a follow-up read of its own would take the changes it counts.
      followBackoff: { firstMs: 3_600_000, maxMs: 3_600_000 },
    });
    const after = await t.call('outbox.list', { states: ['queued'] });
    expect(after.entries).toEqual(before.entries);
  });

  it('connecting sends it all once through the auto-flush: local ids resolved, mirror and events', async () => {
    const ordersBefore = await serviceOrderCount();
    // This team sends orders automatically (by default they wait: orders-wait.spec.ts).
    await t.call('settings.update', { autoSendOrders: true });
    const finished = t.waitFor('outbox.finished');
    await connected(t);
    const result = (await finished) as FlushResult;
    // The delivery waits for its order's item to complete (waitForOrderItems).
    expect(result).toEqual({
      sent: 6,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 1,
      problems: [],
    });
    const waiting = (await t.call('outbox.list')).entries.find(
      (e) => e.id === queued.delivery!.id,
    )!;
    expect(waiting).toMatchObject({ state: 'queued', attempts: 0, lastError: { kind: 'waiting' } });

    const progress = t.events.filter((e) => e.event === 'outbox.progress').map((e) => e.payload);
    expect(progress).toHaveLength(7);
    expect(progress.at(-1)).toEqual({
      sent: 6,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 1,
    });
    // The service completes the item; a sync shows it; the delivery goes.
    await service.server.app.ctx.worker.drain();
    const synced = t.waitFor('sync.finished');
    await t.call('sync.run', { resources: ['orderItems'] });
    await synced;
    expect(await t.call('outbox.flush')).toMatchObject({ sent: 1, remaining: 0 });
    const changedKinds = t.events
      .filter((e) => e.event === 'records.changed')
      .flatMap((e) => (e.payload as { kinds: string[] }).kinds);
    expect(new Set(changedKinds)).toEqual(
      new Set(['orders', 'aois', 'indices', 'visualizations', 'deliveries', 'jobs']),
    );
    expect(t.events.filter((e) => e.event === 'outbox.changed').at(-1)?.payload).toEqual({
      pending: 0,
    });

    const list = await t.call('outbox.list');
    expect(list.counts.sent).toBe(7);
    const byId = new Map(list.entries.map((e) => [e.id, e]));
    for (const e of list.entries) {
      expect(e.state).toBe('sent');
      expect(e.remoteId).toBeTruthy();
      expect(e.sentAt).not.toBeNull();
      expect(e.can).toEqual({
        edit: false,
        retry: false,
        cancel: false,
        confirm: false,
        resend: false,
      });
    }
    // Created once on the service.
    expect(await serviceOrderCount()).toBe(ordersBefore + 2);
    const aoiId = byId.get(queued.aoi!.id)!.remoteId!;
    const aois = await client.listAois({});
    expect(aois.aois.filter((a) => a.name === 'Vineyard north').map((a) => a.aoi_id)).toEqual([
      aoiId,
    ]);
    // The visualization went to the real AOI, on its scene assets.
    const [vis] = await t.call('visualizations.list');
    expect(vis).toMatchObject({ aoi_id: aoiId, index_id: 'idx-ndvi-aurora' });
    expect(byId.get(queued.vis!.id)!.summary).toBe(
      'Visualization · idx-ndvi-aurora on AOI Vineyard north',
    );
    // Written into the mirror at once, before any sync.
    const orderIds = [queued.order!.id, queued.archive!.id].map((id) => byId.get(id)!.remoteId);
    expect((await t.call('orders.list')).map((o) => o.id).sort()).toEqual([...orderIds].sort());
    expect((await t.call('aois.list')).map((a) => a.aoi_id)).toEqual([aoiId]);
    const deliveries = await t.call('deliveries.list');
    expect(deliveries.map((d) => d.delivery_id).sort()).toEqual(
      deliveryIdsOf(byId.get(queued.delivery!.id)!.response).sort(),
    );
    expect((await t.call('jobs.list')).map((j) => j.workflow_id)).toEqual(['wf-ndvi-timeseries']);

    // Nothing left: "Submit all" sends nothing again.
    expect(await t.call('outbox.flush')).toEqual({
      sent: 0,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 0,
      problems: [],
    });
    expect(await serviceOrderCount()).toBe(ordersBefore + 2);
  });

  it('after a sync: orders, items, AOIs, assets and indices filtered offline; lookups', async () => {
    await t.call('settings.update', { mirror: { catalog: 'none' } });
    const done = t.waitFor('sync.finished');
    await t.call('sync.run', {});
    await done;

    const orders = await t.call('orders.list');
    expect(orders.length).toBeGreaterThanOrEqual(2);
    for (const status of new Set(orders.map((o) => o.status))) {
      expect(await t.call('orders.list', { status: [status] })).toEqual(
        orders.filter((o) => o.status === status),
      );
    }
    expect(await t.call('orders.list', { created: { from: '2999-01-01T00:00:00Z' } })).toEqual([]);
    expect(
      await t.call('orders.list', { created: { to: new Date(Date.now() + 60_000).toISOString() } }),
    ).toEqual(orders);

    const items = await t.call('orderItems.list');
    const names = (list: Array<{ name?: string | null }>) => list.map((i) => i.name).sort();
    const tasking = orders.find((o) => o.order_items.length === 2)!;
    expect(names(await t.call('orderItems.list', { orderIds: [tasking.id] }))).toEqual([
      'Field A',
      'Field B',
    ]);
    expect(await t.call('orderItems.list', { orderIds: orders.map((o) => o.id) })).toEqual(items);
    expect(names(await t.call('orderItems.list', { type: ['ARCHIVE'] }))).toEqual([
      'Vineyard archive',
    ]);
    expect(names(await t.call('orderItems.list', { text: 'field a' }))).toEqual(['Field A']);
    expect(names(await t.call('orderItems.list', { projectId: FLOODS }))).toEqual(['Field B']);
    for (const status of new Set(items.map((i) => i.status))) {
      expect(await t.call('orderItems.list', { status: [status] })).toEqual(
        items.filter((i) => i.status === status),
      );
    }
    const big = await t.call('orderItems.list', { areaKm2: { min: 50 } });
    expect(names(big)).toEqual(['Field A', 'Field B']);
    expect(big.every((i) => (i.area ?? 0) >= 50)).toBe(true);
    expect(names(await t.call('orderItems.list', { areaKm2: { max: 50 } }))).toEqual([
      'Vineyard archive',
    ]);

    const [aoi] = await t.call('aois.list', { text: 'VINEYARD' });
    expect(aoi?.name).toBe('Vineyard north');
    expect(await t.call('aois.list', { projectId: FLOODS })).toEqual([]);
    expect(await t.call('aois.list', { status: [aoi!.status] })).toEqual([aoi]);
    const assets = await t.call('aois.assets', { aoiId: aoi!.aoi_id });
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.every((a) => a.aoi_id === aoi!.aoi_id)).toBe(true);
    expect(assets.some((a) => a.asset_type === 'scene')).toBe(true);
    expect(await t.call('aois.assets', { aoiId: 'no-such-aoi' })).toEqual([]);

    expect((await t.call('indices.list', { type: 'custom' })).map((i) => i.name)).toEqual(['NDRE']);
    const presets = await t.call('indices.list', { type: 'preset' });
    expect(presets.map((i) => i.id).sort()).toEqual([
      'idx-nbr-aurora',
      'idx-ndvi-aurora',
      'idx-ndvi-kestrel',
      'idx-ndwi-aurora',
      'idx-pan-kestrel',
      'idx-truecolor-aurora',
    ]);
    expect(
      (await t.call('indices.list', { satelliteId: 'sat-kestrel-1' })).map((i) => i.id).sort(),
    ).toEqual(['idx-ndvi-kestrel', 'idx-pan-kestrel']);

    // The service's reference lists (read at sync), with names and every band of a satellite.
    const lookups = await t.call('lookups.get');
    expect(lookups.projectIds).toEqual([CROPS, FLOODS]);
    expect(lookups.projects.map((p) => p.name)).toEqual(['Crop monitoring', 'Flood response']);
    expect(lookups.bandsetIds.length).toBeGreaterThan(0);
    expect(lookups.bandsetIds).toEqual([...new Set(lookups.bandsetIds)].sort());
    expect(lookups.workflowIds).toEqual([
      'wf-change-detection',
      'wf-cloud-mask',
      'wf-ndvi-timeseries',
    ]);
    const aurora = lookups.satellites.find((s) => s.id === 'sat-aurora-1');
    expect(aurora).toMatchObject({ name: 'Aurora-1', bandsListed: true });
    expect(aurora?.bands).toEqual(expect.arrayContaining(['B01', 'B04', 'B05', 'B08', 'B11']));
    expect(aurora?.bands).toEqual([...new Set(aurora?.bands)]);
    expect(lookups.satellites.map((s) => s.id)).toContain('sat-kestrel-1');
  });

  it('created.refresh follows unfinished jobs, visualizations and deliveries; offline says so', async () => {
    const isFinal = (s: string | null | undefined) =>
      ['success', 'succeeded', 'failed', 'partial_success'].includes(String(s).toLowerCase());
    expect(await errorOf(startedUnconfigured, 'created.refresh', {})).toMatchObject({
      code: 'not_configured',
    });
    // Nothing has run on the service yet: all unfinished, and the service is needed to follow them.
    expect((await t.call('jobs.list'))[0]!.status).toBe('QUEUED');
    // A service nobody listens on (with a key of its own: a key follows no URL). The indicator
    // says offline before we reconnect.
    const offline = t.waitFor(
      'connectivity.changed',
      (p) => (p as { state: string }).state === 'offline',
    );
    await t.call('settings.update', { serviceUrl: 'http://127.0.0.1:9', apiKey: 'eok_none' });
    expect(await errorOf(t, 'created.refresh', {})).toMatchObject({ code: 'offline' });
    await offline;
    await connected(t);

    service.server.app.ctx.worker.drain();
    const changed = t.waitFor('records.changed');
    const { updated } = await t.call('created.refresh');
    const [job] = await t.call('jobs.list');
    const [vis] = await t.call('visualizations.list');
    const deliveries = await t.call('deliveries.list');
    expect(updated).toBe(2 + deliveries.length);
    expect(new Set(((await changed) as { kinds: string[] }).kinds)).toEqual(
      new Set(['jobs', 'visualizations', 'deliveries']),
    );
    expect(job!.status).toBe('SUCCEEDED');
    expect(isFinal(vis!.status)).toBe(true);
    expect(deliveries.every((d) => isFinal(d.status))).toBe(true);
    // All done: nothing more to read.
    expect(await t.call('created.refresh')).toEqual({ updated: 0 });
  });
});

describe('a create the service refuses', () => {
  it('fails with its message, blocks its dependents; retry, edit, cancel and conflicts', async () => {
    const t = await connected();
    try {
      // "Submit all" sends orders only with this setting (else the review does: order-review.spec).
      await t.call('settings.update', { autoSendOrders: true });
      const order = await t.call('outbox.enqueue', {
        kind: 'order',
        input: archiveOrder('Lost scene', 'AUR1_20000101T000000_L2A_R000_F0000', scene.box),
      });
      const delivery = await t.call('outbox.enqueue', {
        kind: 'delivery',
        input: {
          deliveries: [
            {
              order_item_ids: [`local:${order.id}#0`],
              cloud_info: { config: 's3-default', path: 'field/lost' },
            },
          ],
        },
      });
      const job = await t.call('outbox.enqueue', {
        kind: 'job',
        input: { workflow_id: 'wf-cloud-mask', project_id: CROPS },
      });
      const cancelled = await t.call('outbox.cancel', { id: job.id });
      expect(cancelled).toMatchObject({
        state: 'cancelled',
        can: { edit: false, retry: false, cancel: false, confirm: false, resend: false },
      });

      const finished = t.waitFor('outbox.finished');
      const result = await t.call('outbox.flush');
      expect(await finished).toEqual(result);
      expect(result).toMatchObject({
        sent: 0,
        failed: 1,
        blocked: 1,
        unconfirmed: 0,
        remaining: 0,
      });
      const [failed, blocked] = result.problems;
      expect(failed).toMatchObject({
        id: order.id,
        kind: 'order',
        summary: 'Order · 1 item: Lost scene',
      });
      expect(failed!.message).toMatch(/order_items\.0\.item_ids\.0/);
      expect(failed!.message).not.toMatch(/^POST /);
      expect(blocked).toMatchObject({ id: delivery.id, kind: 'delivery' });
      expect(blocked!.message).toMatch(/^Waits for Order · 1 item: Lost scene, which is failed: /);

      const list = await t.call('outbox.list', { states: ['failed', 'blocked'] });
      const failedView = list.entries.find((e) => e.id === order.id)!;
      expect(failedView).toMatchObject({
        state: 'failed',
        attempts: 1,
        can: { edit: true, retry: true, cancel: true, confirm: false, resend: false },
        lastError: { status: 400 },
      });
      expect(failedView.lastError?.details?.map((d) => d.path)).toContain(
        'order_items.0.item_ids.0',
      );
      expect(list.counts).toMatchObject({ failed: 1, blocked: 1, cancelled: 1 });

      // retry: back to the queue with its dependents; the service refuses it again.
      expect(await t.call('outbox.retry', { id: order.id })).toMatchObject({ state: 'queued' });
      expect(
        (await t.call('outbox.list', { states: ['queued'] })).entries.map((e) => e.id),
      ).toEqual([order.id, delivery.id]);
      expect(await t.call('outbox.flush')).toMatchObject({ failed: 1, blocked: 1 });

      // edit with a real scene: the order goes, its delivery once the item completed.
      const edited = await t.call('outbox.edit', {
        id: order.id,
        input: archiveOrder('Found scene', scene.id, scene.box),
      });
      expect(edited).toMatchObject({ state: 'queued', summary: 'Order · 1 item: Found scene' });
      const kinds = t.waitFor('records.changed');
      expect(await t.call('outbox.flush')).toEqual({
        sent: 1,
        failed: 0,
        blocked: 0,
        unconfirmed: 0,
        remaining: 1,
        problems: [],
      });
      expect(new Set(((await kinds) as { kinds: string[] }).kinds)).toEqual(new Set(['orders']));
      await service.server.app.ctx.worker.drain();
      const synced = t.waitFor('sync.finished');
      await t.call('sync.run', { resources: ['orderItems'] });
      await synced;
      const deliveryKinds = t.waitFor('records.changed');
      expect(await t.call('outbox.flush')).toMatchObject({ sent: 1, remaining: 0, problems: [] });
      expect(new Set(((await deliveryKinds) as { kinds: string[] }).kinds)).toEqual(
        new Set(['deliveries']),
      );
      expect(t.events.filter((e) => e.event === 'outbox.changed').at(-1)?.payload).toEqual({
        pending: 0,
      });

      // A sent entry can be neither cancelled, edited nor retried.
      for (const [method, input] of [
        ['outbox.cancel', { id: order.id }],
        ['outbox.retry', { id: order.id }],
        ['outbox.edit', { id: order.id, input: archiveOrder('Again', scene.id, scene.box) }],
      ] as const) {
        expect(await errorOf(t, method, input)).toMatchObject({ code: 'conflict' });
      }
      expect(await errorOf(t, 'outbox.retry', { id: 'no-such-entry' })).toMatchObject({
        code: 'invalid_argument',
        details: { issues: [{ path: 'id' }] },
      });
      // Nor a cancelled one edited.
      const badEdit = await errorOf(t, 'outbox.edit', {
        id: job.id,
        input: { workflow_id: 'wf-cloud-mask' },
      });
      expect(badEdit).toMatchObject({ code: 'conflict' });
    } finally {
      await t.close();
    }
  });

  it('edits are re-validated with input. paths; the entry is unchanged', async () => {
    const t = startBackend();
    try {
      const job = await t.call('outbox.enqueue', {
        kind: 'job',
        input: { workflow_id: 'wf-cloud-mask', project_id: CROPS },
      });
      const bad = await errorOf(t, 'outbox.edit', {
        id: job.id,
        input: { workflow_id: 'wf-cloud-mask' },
      });
      expect(bad.code).toBe('invalid_argument');
      expect(pathsOf(bad)).toEqual(['input.project_id']);
      expect((await t.call('outbox.list')).entries[0]!.input).toEqual(job.input);
    } finally {
      await t.close();
    }
  });
});

describe('the connectivity watcher', () => {
  it('auto-flushes what is queued and polls unfinished created records on its ticks', async () => {
    const t = await connected(startBackend({ connectivityIntervalMs: 100 }));
    try {
      const finished = t.waitFor('outbox.finished');
      // A job runs over the AOIs of its project: the project gets one first.
      const aoi = await t.call('outbox.enqueue', {
        kind: 'aoi',
        input: aoiInput('Flood plain', scene.id, scene.box, FLOODS),
      });
      const job = await t.call('outbox.enqueue', {
        kind: 'job',
        input: { workflow_id: 'wf-ndvi-timeseries', project_id: FLOODS },
      });
      expect(await finished).toMatchObject({ sent: 2, problems: [] });
      const [sent] = await t.call('jobs.list');
      expect(sent).toMatchObject({ workflow_id: 'wf-ndvi-timeseries', status: 'QUEUED' });
      // No created.refresh call: the next ticks re-read the job once the service ran it.
      const polled = t.waitFor('records.changed', (p) =>
        (p as { kinds: string[] }).kinds.includes('jobs'),
      );
      service.server.app.ctx.worker.drain();
      await polled;
      expect((await t.call('jobs.list'))[0]!.status).toBe('SUCCEEDED');
      expect((await t.call('outbox.list')).entries.map((e) => [e.id, e.state])).toEqual([
        [aoi.id, 'sent'],
        [job.id, 'sent'],
      ]);
      // Later ticks find nothing queued: one batch, one outbox.finished. Three more ticks
      // (their connectivity reads, counted on fetch) rather than a guess at how long they take.
      const checks = vi.spyOn(globalThis, 'fetch');
      try {
        await until(
          'three more watcher ticks',
          () =>
            checks.mock.calls.filter(([url]) => String(url).includes('/v0/indices?limit=1'))
              .length >= 3,
        );
      } finally {
        checks.mockRestore();
      }
      await t.backend.idle();
      expect(t.events.filter((e) => e.event === 'outbox.finished')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('orders.quote', () => {
  it("answers online with the service's price and creates nothing", async () => {
    const t = await connected();
    try {
      const before = await serviceOrderCount();
      const quote = await t.call(
        'orders.quote',
        taskingOrder([{ name: 'Quote A' }, { name: 'Quote B' }]),
      );
      expect(quote.total_amount).toBeGreaterThan(0);
      expect(quote.order_items).toHaveLength(2);
      expect(quote.order_items[0]!.final_amount).toBeGreaterThan(0);
      expect(quote.order_items[0]!.feasibility_status).toBeTruthy();
      expect(await serviceOrderCount()).toBe(before);
      expect(await t.call('orders.list')).toEqual([]);

      const refused = await errorOf(t, 'orders.quote', {
        order_items: [
          { ...taskingOrder([{ name: 'x' }]).order_items[0]!, bandset: { bandset_id: 'bs-nope' } },
        ],
      });
      expect(refused.code).toBe('invalid_argument');
      expect(pathsOf(refused)).toEqual(['order_items.0.bandset.bandset_id']);
    } finally {
      await t.close();
    }
  });

  it('says not_configured, offline or unauthorized when it cannot ask', async () => {
    const input = taskingOrder([{ name: 'x' }]);
    const unconfigured = startBackend();
    const down = startBackend();
    const wrongKey = startBackend();
    try {
      expect(await errorOf(unconfigured, 'orders.quote', input)).toMatchObject({
        code: 'not_configured',
      });
      // A service nobody listens on (stopped).
      await down.call('settings.update', { serviceUrl: 'http://127.0.0.1:9', apiKey: 'k' });
      const offline = await errorOf(down, 'orders.quote', input);
      expect(offline.code).toBe('offline');
      expect(offline.message).toMatch(/cannot be reached/);
      // "Submit all" to it: refused before anything is attempted.
      const entry = await down.call('outbox.enqueue', { kind: 'order', input });
      expect(await errorOf(down, 'outbox.flush', {})).toMatchObject({ code: 'offline' });
      expect((await down.call('outbox.list')).entries[0]).toMatchObject({
        id: entry.id,
        state: 'queued',
        attempts: 0,
      });
      await wrongKey.call('settings.update', { serviceUrl: service.url, apiKey: 'eok_wrong' });
      expect(await errorOf(wrongKey, 'orders.quote', input)).toMatchObject({
        code: 'unauthorized',
      });
    } finally {
      await Promise.all([unconfigured.close(), down.close(), wrongKey.close()]);
    }
  });
});
