/**
 * An order that can never succeed is refused when it is queued (issue 17, item 2): an archive
 * item mixing Aurora and Kestrel scenes (the service: "share no bandset"), a scene outside the
 * item's area, an order already queued or placed. The mirror is synced from the real reference
 * service on 127.0.0.1; the suggested split is queued and the service accepts it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EoApiError, type EoClient } from '@eo/api-client';
import type { CatalogRecordOut } from '@eo/catalog-store';
import type { Geometry } from '@eo/domain';
import { seedDemo, startServer, type RunningServer } from '@eo/reference-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOutboxMirror } from '../../mirror/outbox-mirror';
import { createSyncEngine } from '../../pull/engine';
import { makeOfflineCatalogSearch } from '../../search/catalog';
import { OutboxInputError } from '../errors';
import type { OutboxInput } from '../kinds';
import { createOutbox } from '../outbox';
import { tempDatabase, testClient } from './service';

type Item = OutboxInput<'order'>['order_items'][number];

let server: RunningServer;
let dataDir: string;
let client: EoClient;
let local: ReturnType<typeof tempDatabase>;
let aurora: CatalogRecordOut;
let kestrel: CatalogRecordOut;

/** A small square in the middle of a scene's bbox. */
function squareIn(record: CatalogRecordOut): Geometry {
  const [w, s, e, n] = record.details.bbox as [number, number, number, number];
  const [cx, cy, dx, dy] = [(w + e) / 2, (s + n) / 2, (e - w) / 10, (n - s) / 10];
  return {
    type: 'Polygon',
    coordinates: [
      [
        [cx - dx, cy - dy],
        [cx + dx, cy - dy],
        [cx + dx, cy + dy],
        [cx - dx, cy + dy],
        [cx - dx, cy - dy],
      ],
    ],
  };
}

function archiveItem(name: string, records: CatalogRecordOut[], area = records): Item {
  return {
    project_id: 'prj-demo-crops',
    name,
    geometry: {
      type: 'FeatureCollection',
      features: area.map((r) => ({ type: 'Feature' as const, geometry: squareIn(r) })),
    },
    item_ids: records.map((r) => r.details.id),
  };
}

function refusal(fn: () => unknown): OutboxInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OutboxInputError) return e;
    throw e;
  }
  throw new Error('the outbox accepted it');
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-order-checks-'));
  server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 600 }).demoKey!;
  client = testClient(server.url, key);
  local = tempDatabase();
  // The catalog and the reference lists (which bands each bandset has).
  await createSyncEngine({ db: local, client }).sync({ resources: ['catalogs'], reference: true });
  const records = makeOfflineCatalogSearch(local.sqlite)({ limit: 1000 }).catalogs;
  const on = (platform: string) => records.find((r) => r.details.properties.platform === platform)!;
  aurora = on('aurora-1');
  kestrel = on('kestrel-1');
  expect(aurora && kestrel).toBeTruthy();
});
afterAll(async () => {
  local.remove();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('an order the service would refuse is refused when queued', () => {
  it('Aurora and Kestrel scenes in one item: names the item and scenes, offers the split', async () => {
    const outbox = createOutbox({ db: local.sqlite });
    const mixed = { order_items: [archiveItem('Select all', [aurora, kestrel])] };

    // The service refuses it on reconnect: that is what queuing it would have led to.
    const online = await client.createOrder({ ...mixed, dry_run: true }).catch((e: unknown) => e);
    expect(online).toBeInstanceOf(EoApiError);
    expect((online as EoApiError).message).toContain('share no bandset');

    const e = refusal(() => outbox.enqueue('order', mixed));
    expect(outbox.counts().queued).toBe(0);
    const problem = e.details.find((d) => d.path === 'order_items.0.item_ids.1')!;
    expect(problem.message).toContain('item "Select all"');
    expect(problem.message).toContain(`${aurora.details.id} (aurora-1)`);
    expect(problem.message).toContain(`${kestrel.details.id} (kestrel-1)`);
    expect(problem.message).toContain('share no bandset');
    expect(problem.fix!.order_items).toMatchObject([
      { name: 'Select all (aurora-1)', item_ids: [aurora.details.id] },
      { name: 'Select all (kestrel-1)', item_ids: [kestrel.details.id] },
    ]);

    // The fix, applied as offered, is queued and the service takes it.
    const split = outbox.enqueue('order', { order_items: problem.fix!.order_items as Item[] });
    const progress = await outbox.flush({ client });
    expect(progress).toMatchObject({ sent: 1, failed: 0 });
    expect(outbox.get(split.id)!.state).toBe('sent');
  });

  it('the split keeps the bandset only with the satellite it fits; the service takes it (issue 26, defect 2)', async () => {
    const outbox = createOutbox({ db: local.sqlite });
    for (const [bandset, keptBy] of [
      ['bs-aurora-rgbn', 'aurora-1'],
      ['bs-kestrel-pan', 'kestrel-1'],
    ] as const) {
      const item = {
        ...archiveItem(`With ${bandset}`, [aurora, kestrel]),
        bandset: { bandset_id: bandset },
      };
      const e = refusal(() => outbox.enqueue('order', { order_items: [item] }));
      const fix = e.details.find((d) => d.fix)!.fix!.order_items as Item[];
      expect(fix.map((i) => [i.name, i.bandset?.bandset_id])).toEqual([
        [`With ${bandset} (aurora-1)`, keptBy === 'aurora-1' ? bandset : undefined],
        [`With ${bandset} (kestrel-1)`, keptBy === 'kestrel-1' ? bandset : undefined],
      ]);
      // The service prices the split as offered: no item names a bandset its scenes lack.
      await expect(client.createOrder({ order_items: fix, dry_run: true })).resolves.toMatchObject({
        order_items: [
          { bandset: { bandset_id: keptBy === 'aurora-1' ? bandset : 'bs-aurora-rgbn' } },
          {},
        ],
      });
    }
  });

  it('a scene that does not touch the item area', () => {
    const outbox = createOutbox({ db: local.sqlite });
    const e = refusal(() =>
      outbox.enqueue('order', {
        order_items: [archiveItem('Wrong place', [kestrel], [aurora])],
      }),
    );
    expect(e.details).toEqual([
      {
        path: 'order_items.0.item_ids.0',
        message: `item "Wrong place": scene ${kestrel.details.id} (kestrel-1) does not touch the item's area`,
      },
    ]);
  });

  it('end date before start date (the schema)', () => {
    const outbox = createOutbox({ db: local.sqlite });
    const item = {
      ...archiveItem('Backwards', [aurora]),
      item_ids: undefined,
      start_date: '2030-06-30T00:00:00Z',
      end_date: '2030-06-01T00:00:00Z',
    };
    const e = refusal(() => outbox.enqueue('order', { order_items: [item] }));
    expect(e.details).toContainEqual({
      path: 'order_items.0.end_date',
      message: 'end_date must be after start_date',
    });
  });

  it('the same order queued twice, or already placed on the service', async () => {
    const outbox = createOutbox({ db: local.sqlite, mirror: makeOutboxMirror(local.sqlite) });
    const order = { order_items: [archiveItem('Twice', [aurora])] };
    const first = outbox.enqueue('order', order);
    const again = refusal(() => outbox.enqueue('order', order));
    expect(again.details).toEqual([
      {
        path: 'order_items',
        message: `the same order (same items, same scenes) is already in the outbox (queued, entry ${first.id})`,
      },
    ]);
    // Editing the entry itself is not a duplicate of itself.
    expect(outbox.edit(first.id, order).state).toBe('queued');
    // Other scenes, or another name: another order.
    outbox.cancel(outbox.enqueue('order', { order_items: [archiveItem('Twice', [kestrel])] }).id);

    // Placed by another device: the mirror learns it by sync.
    const placed = await client.createOrder({ order_items: [archiveItem('Elsewhere', [kestrel])] });
    await createSyncEngine({ db: local, client }).sync({ resources: ['orders', 'orderItems'] });
    const dup = refusal(() =>
      outbox.enqueue('order', { order_items: [archiveItem('Elsewhere', [kestrel])] }),
    );
    expect(dup.details[0]!.message).toBe(
      `the same order (same items, same scenes) was already placed (order ${placed.id})`,
    );
  });

  it('two tasking orders with one name and project are two orders, not a duplicate', () => {
    const outbox = createOutbox({ db: local.sqlite, mirror: makeOutboxMirror(local.sqlite) });
    const survey = (w: number) => ({
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: 'Field survey',
          geometry: {
            type: 'FeatureCollection' as const,
            features: [
              {
                type: 'Feature' as const,
                properties: {},
                geometry: {
                  type: 'Polygon' as const,
                  coordinates: [
                    [
                      [w, 44.45],
                      [w + 0.05, 44.45],
                      [w + 0.05, 44.5],
                      [w, 44.5],
                      [w, 44.45],
                    ],
                  ],
                },
              },
            ],
          },
          start_date: '2030-06-01T00:00:00Z',
          end_date: '2030-06-30T00:00:00Z',
        },
      ],
    });
    const first = outbox.enqueue('order', survey(11.3));
    const second = outbox.enqueue('order', survey(12.3));
    expect([first.state, second.state]).toEqual(['queued', 'queued']);
    for (const e of [first, second]) outbox.cancel(e.id);
  });

  it('a scene the mirror does not hold is not guessed about: queued as before', async () => {
    const outbox = createOutbox({ db: local.sqlite });
    const mirrored = new Set(
      makeOfflineCatalogSearch(local.sqlite)({ limit: 1000 }).catalogs.map((r) => r.details.id),
    );
    const { features } = await client.listArchiveItems('col-kestrel-ortho', { limit: 100 });
    const unmirrored = features.find((f) => !mirrored.has(f.id))!;
    const item = {
      ...archiveItem('Not mirrored', [aurora]),
      item_ids: [aurora.details.id, unmirrored.id],
    };
    expect(outbox.enqueue('order', { order_items: [item] }).state).toBe('queued');
  });
});
