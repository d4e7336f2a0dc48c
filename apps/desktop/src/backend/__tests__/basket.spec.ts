/**
 * The basket (issue 17, item 5) against the real reference service and real SQLite: kept across
 * a restart, refused past its limit, emptied of exactly what a queued delivery or archive order
 * consumed (and told with `basket.changed`), and the "Ordered" records of queued orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BasketEntry, CatalogRow } from '../../shared/contract';
import { MAX_BASKET } from '../../shared/contract';
import {
  connectTo,
  startBackend,
  startService,
  syncToEnd,
  type TestBackend,
  type TestService,
} from './harness';
import { archiveOrder } from './create-inputs';

let service: TestService;
beforeAll(async () => {
  service = await startService(60);
});
afterAll(async () => {
  await service?.close();
});

async function connectedAndSynced(t: TestBackend): Promise<void> {
  await syncToEnd(await connectTo(t, service));
}

/** A small box in the middle of a row's footprint (an archive item's area must touch it). */
function inside(row: CatalogRow): [number, number, number, number] {
  const [w, s, e, n] = row.bbox!;
  const [cx, cy, dx, dy] = [(w + e) / 2, (s + n) / 2, (e - w) / 40, (n - s) / 40];
  return [cx - dx, cy - dy, cx + dx, cy + dy];
}

const idsOf = (entries: readonly BasketEntry[]) => entries.map((e) => e.id);

describe('the basket', () => {
  let t: TestBackend;
  let rows: CatalogRow[];
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the records added, with what the mirror says of them, across a restart', async () => {
    const first = startBackend();
    await connectedAndSynced(first);
    rows = (await first.call('catalog.search', { limit: 3 })).items;
    expect(rows).toHaveLength(3);
    expect((await first.call('basket.list')).entries).toEqual([]);

    const [a, b, c] = rows;
    await first.call('basket.add', { ids: [a!.id, b!.id] });
    // Adding again keeps one entry, in its place.
    const after = await first.call('basket.add', { ids: [b!.id, c!.id, 'not-mirrored'] });
    expect(idsOf(after.entries)).toEqual([a!.id, b!.id, c!.id, 'not-mirrored']);
    const [entryA] = after.entries;
    const record = (await first.call('catalog.get', { id: a!.id })) as unknown as {
      details: { id: string; collection: string; properties: Record<string, unknown> };
    };
    expect(typeof record.details.properties['platform']).toBe('string');
    expect(entryA).toMatchObject({
      id: a!.id,
      sceneId: record.details.id,
      collection: record.details.collection,
      datetime: a!.datetime,
      platform: record.details.properties['platform'],
      inMirror: true,
    });
    expect(after.entries[3]).toMatchObject({ id: 'not-mirrored', inMirror: false, sceneId: null });
    await first.call('basket.remove', { ids: ['not-mirrored'] });
    await first.backend.close();

    t = startBackend({ dataDir: first.dataDir });
    expect(idsOf((await t.call('basket.list')).entries)).toEqual([a!.id, b!.id, c!.id]);
  });

  it(`refuses more than ${MAX_BASKET} records, keeping the basket as it was`, async () => {
    const many = Array.from({ length: MAX_BASKET }, (_, i) => `extra-${i}`);
    const r = await t.raw('basket.add', { ids: many });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect((await t.call('basket.list')).entries).toHaveLength(3);
  });

  it('a queued delivery takes out exactly its catalog records, and says so', async () => {
    const [a, b, c] = rows;
    const changed = t.waitFor('basket.changed');
    await t.call('outbox.enqueue', {
      kind: 'delivery',
      input: {
        deliveries: [{ catalog_ids: [a!.id], cloud_info: { config: 's3-default', path: 'x' } }],
      },
    });
    expect(await changed).toMatchObject({ consumed: [a!.id], by: 'delivery' });
    expect(idsOf((await t.call('basket.list')).entries)).toEqual([b!.id, c!.id]);
  });

  it('a queued archive order takes out the records of its scenes; they show as ordered', async () => {
    const [, b, c] = rows;
    const scene = (id: string) =>
      t.call('catalog.get', { id }) as unknown as Promise<{ details: { id: string } }>;
    const sceneB = (await scene(b!.id)).details.id;
    expect((await t.call('catalog.ordered')).ids).not.toContain(b!.id);

    const changed = t.waitFor('basket.changed');
    await t.call('outbox.enqueue', {
      kind: 'order',
      input: archiveOrder('Basket order', sceneB, inside(b!)),
    });
    expect(await changed).toMatchObject({ consumed: [b!.id], by: 'order' });
    expect(idsOf((await t.call('basket.list')).entries)).toEqual([c!.id]);
    const ordered = (await t.call('catalog.ordered')).ids;
    expect(ordered).toContain(b!.id);
    expect(ordered).not.toContain(c!.id);
  });

  it('an order of other scenes consumes nothing and says nothing', async () => {
    const before = t.events.filter((e) => e.event === 'basket.changed').length;
    await t.call('outbox.enqueue', {
      kind: 'order',
      input: archiveOrder('Other scene', 'some-other-scene', [0, 0, 0.01, 0.01]),
    });
    expect(t.events.filter((e) => e.event === 'basket.changed')).toHaveLength(before);
    expect((await t.call('basket.list')).entries).toHaveLength(1);
    expect((await t.call('basket.clear')).entries).toEqual([]);
  });

  it('answers the mirrored record of each scene id (for thumbnails), null when none', async () => {
    const [a, b] = rows;
    const sceneOf = async (id: string) =>
      ((await t.call('catalog.get', { id })) as unknown as { details: { id: string } }).details.id;
    const [sceneA, sceneB] = [await sceneOf(a!.id), await sceneOf(b!.id)];
    expect(sceneA).not.toBe(a!.id);
    const answer = await t.call('catalog.scenes', {
      sceneIds: [sceneB, 'not-a-scene', sceneA, a!.id, sceneB],
    });
    expect(answer.records).toEqual([
      { sceneId: sceneB, recordId: b!.id },
      { sceneId: 'not-a-scene', recordId: null },
      { sceneId: sceneA, recordId: a!.id },
      // A record id given as a scene id: that record.
      { sceneId: a!.id, recordId: a!.id },
      { sceneId: sceneB, recordId: b!.id },
    ]);
  });
});
