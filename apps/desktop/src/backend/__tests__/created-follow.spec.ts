/**
 * Every created record followed until final without a manual sync (issue 17, item 4), against
 * the real reference service whose worker the test steps by hand: the follow-up's waits double
 * while nothing changes and stop at their bound, start again from the first after a change, and
 * end when everything is final. Through the whole backend: an AOI sent by "Submit all" reaches
 * `failed` in the mirror on its own, with the service's reason on its asset; an order sent with
 * the price confirmed is followed to paid, its items to completed (issue 26, defect 1).
 */
import { createEoClient, type EoClient } from '@eo/api-client';
import { openMirror, type Mirror } from '@eo/sync';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCreatedRefresh, type FollowTimers } from '../created-refresh';
import { createEvents } from '../events';
import { aoiInput, archiveOrder, auroraScene } from './create-inputs';
import { startBackend, startService, tempDir, until, type TestService } from './harness';

let service: TestService;
let client: EoClient;
beforeAll(async () => {
  service = await startService(60);
  client = createEoClient({ baseUrl: service.url, apiKey: service.key });
});
afterAll(async () => {
  await service?.close();
});

/** An AOI whose one scene lies far from its area: the service fails it, saying why. */
async function failingAoi(name: string) {
  const near = await auroraScene(client);
  const { features } = await client.listArchiveItems('col-aurora-l2a', { limit: 100 });
  const [x, y] = [near.box[0], near.box[1]];
  const far = features.find((f) => {
    if (f.properties?.['rd:sat_id'] !== 'sat-aurora-1' || !f.bbox) return false;
    const [w, s, e, n] = f.bbox.map(Number) as [number, number, number, number];
    return x < w - 1 || x > e + 1 || y < s - 1 || y > n + 1;
  });
  if (!far) throw new Error('the seed has no far sat-aurora-1 scene');
  return { input: { ...aoiInput(name, far.id, near.box) }, sceneId: far.id };
}

/** Timers the test fires itself: what was asked for, and the read each firing started. */
function manualTimers() {
  let pending: (() => Promise<void>) | null = null;
  const t = {
    delays: [] as number[],
    get pending() {
      return pending !== null;
    },
    async fire(): Promise<void> {
      const fn = pending;
      pending = null;
      if (!fn) throw new Error('no follow-up read is scheduled');
      await fn();
    },
    timers: {
      set(fn, ms) {
        t.delays.push(ms);
        pending = fn;
        return fn;
      },
      clear(handle) {
        if (pending === handle) pending = null;
      },
    } satisfies FollowTimers,
  };
  return t;
}

describe('the follow-up of unfinished records', () => {
  let mirror: Mirror;
  afterAll(() => mirror?.close());

  it('backs off while nothing changes, within its bound, and ends when all is final', async () => {
    mirror = openMirror(path.join(tempDir('eo-follow-'), 'mirror.sqlite'));
    const { input } = await failingAoi('Followed field');
    mirror.outbox.enqueue('aoi', input);
    expect(await mirror.flush(client)).toMatchObject({ sent: 1 });
    expect(mirror.records.unfinished().aois).toHaveLength(1);

    const events = createEvents();
    const changed: string[][] = [];
    events.on('records.changed', (p) => changed.push([...p.kinds]));
    const clock = manualTimers();
    const controller = new AbortController();
    const created = makeCreatedRefresh({
      mirror,
      events,
      connection: () => ({ client, signal: controller.signal }),
      backoff: { firstMs: 10, maxMs: 40 },
      timers: clock.timers,
    });
    created.follow();
    // Nothing moves on the service: each read waits twice as long, never more than 40 ms.
    for (let i = 0; i < 4; i++) await clock.fire();
    expect(clock.delays).toEqual([10, 20, 40, 40, 40]);
    expect(changed).toEqual([]);

    // The service runs one step: the next read finds it, and the waits start over.
    service.server.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
    await clock.fire();
    expect(changed).toEqual([['aois']]);
    expect(mirror.records.aois<{ status: string }>()[0]!.status).toBe('running');
    expect(clock.delays.at(-1)).toBe(10);

    // To the end: failed, and nothing is scheduled after it.
    service.server.app.ctx.worker.drain();
    await clock.fire();
    expect(mirror.records.aois<{ status: string }>()[0]!.status).toBe('failed');
    expect(mirror.records.unfinished().aois).toEqual([]);
    expect(clock.pending).toBe(false);
    created.close();
  });
});

describe('through the backend', () => {
  it('an AOI sent by "Submit all" is followed to failed, with the reason, without a sync', async () => {
    const t = startBackend({ followBackoff: { firstMs: 20, maxMs: 200 } });
    try {
      const online = t.waitFor(
        'connectivity.changed',
        (p) => (p as { state: string }).state === 'online',
      );
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      await online;
      const { input, sceneId } = await failingAoi('Field seen through');
      await t.call('outbox.enqueue', { kind: 'aoi', input });
      expect(await t.call('outbox.flush')).toMatchObject({ sent: 1 });
      const [aoi] = await t.call('aois.list', {});
      expect(aoi).toMatchObject({ status: 'started', progress: 0 });

      // The service finishes it; nobody syncs or presses "Refresh status".
      service.server.app.ctx.worker.drain();
      const final = await until('the AOI reaches its final status in the mirror', async () => {
        const [a] = await t.call('aois.list', {});
        return a?.status === 'failed' ? a : null;
      });
      expect(final).toMatchObject({ aoi_id: aoi!.aoi_id, progress: 100 });
      expect(await t.call('aois.assets', { aoiId: aoi!.aoi_id })).toEqual([
        expect.objectContaining({
          status: 'failed',
          description: `Scene ${sceneId} does not intersect the AOI`,
        }),
      ]);
      expect(t.events.some((e) => e.event === 'sync.finished')).toBe(false);
      expect(t.events.some((e) => e.event === 'records.changed')).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('orders after sending (issue 26, defect 1)', () => {
  it('an order is followed to paid and its items to completed, without a sync', async () => {
    const t = startBackend({
      followBackoff: { firstMs: 20, maxMs: 200 },
      settings: { imagery: 'off', autoSendOrders: true },
    });
    try {
      const online = t.waitFor(
        'connectivity.changed',
        (p) => (p as { state: string }).state === 'online',
      );
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      await online;
      const scene = await auroraScene(client);
      const order = await t.call('outbox.enqueue', {
        kind: 'order',
        input: archiveOrder('Followed order', scene.id, scene.box),
      });
      const delivery = await t.call('outbox.enqueue', {
        kind: 'delivery',
        input: {
          deliveries: [
            {
              order_item_ids: [`local:${order.id}#0`],
              cloud_info: { config: 's3-default', path: 'field/followed' },
            },
          ],
        },
      });
      // The delivery waits for the item to complete.
      expect(await t.call('outbox.flush')).toMatchObject({ sent: 1, remaining: 1 });
      const [sent] = await t.call('orders.list', {});
      expect(sent).toMatchObject({ status: 'UNPAID' });
      expect(
        (await t.call('orderItems.list', { orderIds: [sent!.id] })).map((i) => i.status),
      ).toEqual(['DRAFT']);

      // The service pays the order and completes its item; nobody syncs or refreshes.
      service.server.app.ctx.worker.drain();
      const paid = await until('the order is paid in the mirror', async () => {
        const [o] = await t.call('orders.list', {});
        return o?.status === 'PAID' ? o : null;
      });
      expect(paid.id).toBe(sent!.id);
      const items = await until('its item is completed in the mirror', async () => {
        const list = await t.call('orderItems.list', { orderIds: [sent!.id] });
        return list.every((i) => i.status === 'COMPLETED') ? list : null;
      });
      expect(items).toHaveLength(1);
      expect(items[0]!.tasks?.map((k) => k.status)).toEqual(['COMPLETED']);
      // The completed item frees the delivery that waited for it: sent without a sync either.
      await until('the waiting delivery is sent', async () => {
        const entry = (await t.call('outbox.list')).entries.find((e) => e.id === delivery.id);
        return entry?.state === 'sent';
      });
      expect(t.events.some((e) => e.event === 'sync.finished')).toBe(false);
      expect(
        t.events.some(
          (e) =>
            e.event === 'records.changed' &&
            (e.payload as { kinds: string[] }).kinds.includes('orders'),
        ),
      ).toBe(true);
    } finally {
      await t.close();
    }
  });
});
