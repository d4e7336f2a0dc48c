/** The outbox against the real reference service, on a real SQLite file. */
import type { EoClient } from '@eo/api-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboxInputError, OutboxStateError } from '../errors';
import { PAID_KINDS, type OutboxKind } from '../kinds';
import { createOutbox, type Outbox } from '../outbox';
import {
  aoiInput,
  indexInput,
  orderInput,
  serviceOrders,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from './service';

let svc: TestService;
let client: EoClient;
let local: ReturnType<typeof tempDatabase>;
let outbox: Outbox;
let mirrored: Array<{ kind: OutboxKind; response: unknown }>;

beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
});
afterAll(async () => svc.close());
beforeEach(() => {
  local = tempDatabase();
  mirrored = [];
  outbox = createOutbox({
    db: local.sqlite,
    client,
    mirror: { recordCreated: (kind, response) => void mirrored.push({ kind, response }) },
  });
});
afterEach(() => local.remove());

function inputError(fn: () => unknown): OutboxInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OutboxInputError) return e;
    throw e;
  }
  throw new Error('expected an OutboxInputError');
}

describe('enqueue', () => {
  it('rejects bad input with field paths; nothing enters the queue', () => {
    const order = orderInput('x');
    const badOrder = inputError(() =>
      outbox.enqueue('order', { order_items: [{ ...order.order_items[0]!, name: '' }] }),
    );
    expect(badOrder.details.map((d) => d.path)).toContain('order_items.0.name');
    const badIndex = inputError(() =>
      outbox.enqueue('index', { ...indexInput('i'), rescale: [] as number[] }),
    );
    expect(badIndex.details.map((d) => d.path)).toEqual(['rescale']);
    const badJob = inputError(() =>
      outbox.enqueue('job', { workflow_id: 'wf-ndvi-timeseries' } as never),
    );
    expect(badJob.details.map((d) => d.path)).toEqual(['project_id']);
    const unknownLocal = inputError(() =>
      outbox.enqueue('visualization', {
        aoi_id: 'local:nope',
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: ['local:nope#scenes'],
      }),
    );
    expect(unknownLocal.details).toEqual([
      { path: 'aoi_id', message: 'no outbox entry nope' },
      { path: 'src_asset_ids.0', message: 'no outbox entry nope' },
    ]);
    const queuedOrder = outbox.enqueue('order', orderInput('one item'));
    const badItem = inputError(() =>
      outbox.enqueue('delivery', {
        deliveries: [
          {
            order_item_ids: [`local:${queuedOrder.id}#1`],
            cloud_info: { config: 's3-default', path: 'field' },
          },
        ],
      }),
    );
    expect(badItem.details.map((d) => d.path)).toEqual(['deliveries.0.order_item_ids.0']);
    const wrongKind = inputError(() =>
      outbox.enqueue('visualization', {
        aoi_id: `local:${queuedOrder.id}`,
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: ['ast-1'],
      }),
    );
    expect(wrongKind.details[0]?.message).toContain('is a order, not a aoi');
    expect(outbox.list().map((e) => e.id)).toEqual([queuedOrder.id]);
    expect(outbox.counts()).toMatchObject({ queued: 1 });
  });

  it('edit re-validates: bad input and references to later entries are refused, the entry unchanged', () => {
    const vis = outbox.enqueue('visualization', {
      aoi_id: 'aoi-real',
      index_id: 'idx-ndvi-aurora',
      src_asset_ids: ['ast-1'],
    });
    const laterAoi = outbox.enqueue('aoi', {
      name: 'later',
      description: '',
      satellite_id: 'sat-aurora-1',
      provider: 'p',
      project_id: 'prj-demo-crops',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      item_ids: ['scene-1'],
    });
    const bad = inputError(() => outbox.edit(vis.id, { ...vis.input, src_asset_ids: [] }));
    expect(bad.details.map((d) => d.path)).toEqual(['src_asset_ids']);
    // A reference must point at an earlier entry: no cycles, and dependencies go first.
    const later = inputError(() =>
      outbox.edit(vis.id, { ...vis.input, aoi_id: `local:${laterAoi.id}` }),
    );
    expect(later.details.map((d) => d.path)).toEqual(['aoi_id']);
    expect(outbox.get(vis.id)?.input).toEqual(vis.input);
    const edited = outbox.edit(vis.id, { ...vis.input, index_id: 'idx-other' });
    expect(edited).toMatchObject({ state: 'queued', input: { index_id: 'idx-other' } });
  });

  it('returns the entry: a UUID id, queued, FIFO sequence, its input', () => {
    const a = outbox.enqueue('order', orderInput('a'));
    const b = outbox.enqueue('index', indexInput('b'));
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).toMatchObject({ state: 'queued', attempts: 0, kind: 'order', dependsOn: [] });
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(outbox.get(b.id)?.input).toEqual(indexInput('b'));
  });
});

describe('flush', () => {
  it('every kind creates exactly that resource on the service, and goes to the mirror', async () => {
    const before = (await serviceOrders(client)).length;
    const aoi = outbox.enqueue('aoi', await aoiInput(client, 'Outbox AOI'));
    const index = outbox.enqueue('index', indexInput('Outbox index'));
    const vis = outbox.enqueue('visualization', {
      aoi_id: `local:${aoi.id}`,
      index_id: `local:${index.id}`,
      src_asset_ids: [`local:${aoi.id}#scenes`],
    });
    const order = outbox.enqueue('order', orderInput('Outbox order'));
    const delivery = outbox.enqueue('delivery', {
      deliveries: [
        {
          order_item_ids: [`local:${order.id}#0`],
          cloud_info: { config: 's3-default', path: 'field/outbox' },
        },
      ],
    });
    const job = outbox.enqueue('job', {
      workflow_id: 'wf-ndvi-timeseries',
      project_id: 'prj-demo-crops',
    });
    expect(vis.dependsOn).toEqual([aoi.id, index.id]);
    expect(delivery.dependsOn).toEqual([order.id]);

    const progress: unknown[] = [];
    const result = await outbox.flush({ onProgress: (p) => progress.push(p) });
    expect(result).toEqual({ sent: 6, failed: 0, blocked: 0, unconfirmed: 0, remaining: 0 });
    expect(progress).toHaveLength(6);
    expect(progress.at(-1)).toEqual(result);

    const sent = Object.fromEntries(
      [aoi, index, vis, order, delivery, job].map((e) => [e.kind, outbox.get(e.id)!]),
    );
    for (const e of Object.values(sent)) expect(e).toMatchObject({ state: 'sent', attempts: 1 });
    // Local ids rewritten to the real ones.
    const realAoi = sent.aoi!.remoteId!;
    const visResponse = sent.visualization!.response as Record<string, unknown>;
    expect(visResponse.aoi_id).toBe(realAoi);
    expect(visResponse.index_id).toBe(sent.index!.remoteId);
    const assets = await client.listAoiAssets(realAoi);
    expect(assets.assets.length).toBeGreaterThan(0);
    expect(visResponse.src_asset_ids).toEqual(
      assets.assets.filter((a) => a.asset_type === 'scene').map((a) => a.id),
    );
    // The visualization exists on the service: its index assets hang off the AOI.
    const indexAssets = assets.assets.filter((a) => a.asset_type === 'index');
    expect(indexAssets.map((a) => a.visualization_id)).toEqual(
      (visResponse.src_asset_ids as string[]).map(() => sent.visualization!.remoteId),
    );
    const orderResponse = sent.order!.response as { order_items: Array<{ id: string }> };
    const deliveries = (sent.delivery!.response as { deliveries: Array<Record<string, unknown>> })
      .deliveries;
    expect(deliveries.map((d) => d.order_item_id)).toEqual([orderResponse.order_items[0]!.id]);

    // Exactly those resources exist on the service.
    expect((await serviceOrders(client)).length).toBe(before + 1);
    const aois = await client.listAois({ aoi_name: 'Outbox AOI' });
    expect(aois.aois.map((a) => a.aoi_id)).toEqual([realAoi]);
    const indices = await client.listIndices({ type: 'custom', limit: 100 });
    expect(indices.indices.filter((i) => i.name === 'Outbox index').map((i) => i.id)).toEqual([
      sent.index!.remoteId,
    ]);
    expect(sent.job!.remoteId).toMatch(/^job/);
    expect(mirrored.map((m) => m.kind)).toEqual([
      'aoi',
      'index',
      'visualization',
      'order',
      'delivery',
      'job',
    ]);

    // A second flush has nothing to do.
    expect(await outbox.flush()).toEqual({
      sent: 0,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 0,
    });
  });

  it("a 4xx fails the entry with the service's error and blocks its dependents transitively", async () => {
    const order = outbox.enqueue('order', orderInput('Bad project', 'prj-nope'));
    const delivery = outbox.enqueue('delivery', {
      deliveries: [
        {
          order_item_ids: [`local:${order.id}#0`],
          cloud_info: { config: 's3-default', path: 'field/blocked' },
        },
      ],
    });
    const independent = outbox.enqueue('order', orderInput('Independent'));
    const result = await outbox.flush();
    expect(result).toEqual({ sent: 1, failed: 1, blocked: 1, unconfirmed: 0, remaining: 0 });
    const failed = outbox.get(order.id)!;
    expect(failed.state).toBe('failed');
    expect(failed.lastError).toMatchObject({ kind: 'api', status: 400, code: 'validation_failed' });
    expect(failed.lastError?.details?.map((d) => d.path)).toEqual(['order_items.0.project_id']);
    const blocked = outbox.get(delivery.id)!;
    expect(blocked.state).toBe('blocked');
    expect(blocked.lastError?.message).toContain(failed.lastError!.message);
    expect(outbox.get(independent.id)?.state).toBe('sent');

    // Edited, the order goes back to the queue with its dependents, and both are sent.
    outbox.edit(order.id, orderInput('Fixed project'));
    expect(outbox.get(order.id)).toMatchObject({ state: 'queued', lastError: null });
    expect(outbox.get(delivery.id)?.state).toBe('queued');
    expect(await outbox.flush()).toEqual({
      sent: 2,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 0,
    });
    expect(outbox.get(delivery.id)?.state).toBe('sent');
  });

  it('cancel blocks dependents (not cancelled with it); retry requeues; edits are re-validated', async () => {
    const aoi = outbox.enqueue('aoi', await aoiInput(client, 'Cancelled AOI'));
    const vis = outbox.enqueue('visualization', {
      aoi_id: `local:${aoi.id}`,
      index_id: 'idx-ndvi-aurora',
      src_asset_ids: [`local:${aoi.id}#scenes`],
    });
    outbox.cancel(aoi.id);
    expect(outbox.get(aoi.id)?.state).toBe('cancelled');
    expect(outbox.get(vis.id)).toMatchObject({ state: 'blocked' });
    expect(outbox.get(vis.id)?.lastError?.message).toContain('cancelled');
    expect(() => outbox.edit(vis.id, { aoi_id: `local:${aoi.id}` })).toThrow(OutboxInputError);
    expect(() =>
      outbox.enqueue('visualization', {
        aoi_id: `local:${aoi.id}`,
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: ['a'],
      }),
    ).toThrow(/cancelled/);
    expect(await outbox.flush()).toEqual({
      sent: 0,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 0,
    });
    expect((await client.listAois({ aoi_name: 'Cancelled AOI' })).aois).toEqual([]);

    // Retry of the blocked visualization: flush blocks it again (its AOI is still cancelled).
    outbox.retry(vis.id);
    expect(outbox.get(vis.id)?.state).toBe('queued');
    expect(await outbox.flush()).toMatchObject({ blocked: 1 });
    expect(() => outbox.cancel(aoi.id)).not.toThrow();
    const order = outbox.enqueue('order', orderInput('sent'));
    await outbox.flush();
    expect(() => outbox.cancel(order.id)).toThrow(OutboxStateError);
    expect(() => outbox.edit(order.id, orderInput('again'))).toThrow(OutboxStateError);
    expect(outbox.list({ states: ['sent'] }).map((e) => e.id)).toEqual([order.id]);
  });

  it('an index the service refuses blocks the visualization on it, with the service message', async () => {
    const index = outbox.enqueue('index', {
      ...indexInput('Unknown satellite'),
      satellite_id: 'sat-nope',
    });
    const vis = outbox.enqueue('visualization', {
      aoi_id: 'aoi-whatever',
      index_id: `local:${index.id}`,
      src_asset_ids: ['ast-1'],
    });
    expect(await outbox.flush()).toEqual({
      sent: 0,
      failed: 1,
      blocked: 1,
      unconfirmed: 0,
      remaining: 0,
    });
    const failed = outbox.get(index.id)!;
    expect(failed.lastError).toMatchObject({ status: 400 });
    expect(failed.lastError?.details?.map((d) => d.path)).toContain('satellite_id');
    expect(outbox.get(vis.id)?.lastError?.message).toContain(failed.lastError!.message);
    expect(mirrored).toEqual([]);
  });

  it('a dry-run order is not queued', () => {
    const e = inputError(() => outbox.enqueue('order', { ...orderInput('quote'), dry_run: true }));
    expect(e.details.map((d) => d.path)).toEqual(['dry_run']);
    expect(outbox.counts().queued).toBe(0);
  });

  it('an aborted flush leaves entries queued; the next flush sends each once', async () => {
    const before = (await serviceOrders(client)).length;
    const ids = [0, 1, 2, 3].map((i) => outbox.enqueue('order', orderInput(`aborted ${i}`)).id);
    const controller = new AbortController();
    const result = await outbox.flush({
      signal: controller.signal,
      onProgress: (p) => {
        if (p.sent === 2) controller.abort();
      },
    });
    expect(result).toMatchObject({ sent: 2, remaining: 2 });
    expect(ids.map((id) => outbox.get(id)?.state)).toEqual(['sent', 'sent', 'queued', 'queued']);
    expect(await outbox.flush()).toMatchObject({ sent: 2, remaining: 0 });
    expect((await serviceOrders(client)).length).toBe(before + 4);
  });

  it('a MirrorWriter that throws does not undo the send; it is reported', async () => {
    const reported: string[] = [];
    const withBrokenMirror = createOutbox({
      db: local.sqlite,
      client,
      mirror: {
        recordCreated: () => {
          throw new Error('mirror full');
        },
      },
      onMirrorError: (err, entry) => reported.push(`${entry.state}: ${String(err)}`),
    });
    const entry = withBrokenMirror.enqueue('order', orderInput('mirror broken'));
    expect(await withBrokenMirror.flush()).toMatchObject({ sent: 1, remaining: 0 });
    expect(reported).toEqual(['sent: Error: mirror full']);
    expect(withBrokenMirror.get(entry.id)?.state).toBe('sent');
  });

  it('one flush at a time: a second call shares the running one', async () => {
    for (let i = 0; i < 3; i++) outbox.enqueue('order', orderInput(`concurrent ${i}`));
    const [a, b] = await Promise.all([outbox.flush(), outbox.flush()]);
    expect(a).toBe(b);
    expect(a.sent).toBe(3);
  });
});

describe('the client is per flush', () => {
  it('an outbox made without a client queues, refuses a flush naming none, and sends through the one given', async () => {
    const offline = createOutbox({ db: local.sqlite });
    const entry = offline.enqueue('job', {
      workflow_id: 'wf-ndvi-timeseries',
      project_id: 'prj-demo-crops',
    });
    await expect(offline.flush()).rejects.toThrow(/no client/);
    expect(offline.get(entry.id)!.state).toBe('queued');
    expect(await offline.flush({ client })).toMatchObject({ sent: 1 });
    expect(offline.get(entry.id)!.state).toBe('sent');
  });
});

describe('holdKinds: an automatic flush leaves paid creates queued', () => {
  it('held kinds and their dependents stay queued; a flush without the hold sends them', async () => {
    expect(PAID_KINDS).toEqual(['order']);
    const ordersBefore = (await serviceOrders(client)).length;
    const order = outbox.enqueue('order', orderInput('Held order'));
    const delivery = outbox.enqueue('delivery', {
      deliveries: [
        {
          order_item_ids: [`local:${order.id}#0`],
          cloud_info: { config: 's3-default', path: 'field/held' },
        },
      ],
    });
    const aoi = outbox.enqueue('aoi', await aoiInput(client, 'Free AOI'));

    const held = await outbox.flush({ holdKinds: PAID_KINDS });
    expect(held).toEqual({ sent: 1, failed: 0, blocked: 0, unconfirmed: 0, remaining: 2 });
    expect(outbox.get(aoi.id)?.state).toBe('sent');
    expect(outbox.get(order.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(outbox.get(delivery.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect((await serviceOrders(client)).length).toBe(ordersBefore);

    // Held again on the next automatic flush; sent when a person submits.
    expect((await outbox.flush({ holdKinds: PAID_KINDS })).sent).toBe(0);
    const submitted = await outbox.flush({ ignoreBackoff: true });
    expect(submitted).toEqual({ sent: 2, failed: 0, blocked: 0, unconfirmed: 0, remaining: 0 });
    expect(outbox.get(delivery.id)?.state).toBe('sent');
    expect((await serviceOrders(client)).length).toBe(ordersBefore + 1);
  });
  it('release: only the confirmed held entries go, with their dependents', async () => {
    const ordersBefore = (await serviceOrders(client)).length;
    const confirmed = outbox.enqueue('order', orderInput('Confirmed order'));
    const delivery = outbox.enqueue('delivery', {
      deliveries: [
        {
          order_item_ids: [`local:${confirmed.id}#0`],
          cloud_info: { config: 's3-default', path: 'field/confirmed' },
        },
      ],
    });
    const other = outbox.enqueue('order', orderInput('Not reviewed'));

    const progress = await outbox.flush({
      holdKinds: PAID_KINDS,
      release: [confirmed.id],
      ignoreBackoff: true,
    });
    expect(progress).toEqual({ sent: 2, failed: 0, blocked: 0, unconfirmed: 0, remaining: 1 });
    expect(outbox.get(confirmed.id)?.state).toBe('sent');
    expect(outbox.get(delivery.id)?.state).toBe('sent');
    expect(outbox.get(other.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect((await serviceOrders(client)).length).toBe(ordersBefore + 1);
  });
});
