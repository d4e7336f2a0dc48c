/** The pull engine against the real service: full sync, resume, mark and sweep, cancellation. */
import path from 'node:path';
import { makeCatalogDeleter, COMPACT_LAYOUT } from '@eo/catalog-store';
import { allItems, createEoClient, type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase, type MirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { createSyncEngine, type SyncProgress } from '../engine';
import { SyncBusyError } from '../errors';
import { countingClient, startService, type TestService } from './service';

let service: TestService;
const tmp = tempDir('engine');
let n = 0;
const opened: MirrorDatabase[] = [];
function freshMirror(): MirrorDatabase {
  const db = openMirrorDatabase(path.join(tmp.dir, `mirror-${n++}.db`));
  opened.push(db);
  return db;
}
const ids = (db: MirrorDatabase, sql: string) =>
  (db.sqlite.prepare(sql).all() as Array<{ id: string }>).map((r) => r.id);
const sorted = (l: string[]) => [...l].sort();

async function serviceIds(client: EoClient) {
  const collect = async (
    pages: AsyncIterable<{ items: Array<Record<string, unknown>> }>,
    key: string,
  ) => {
    const out: string[] = [];
    for await (const page of pages) for (const r of page.items) out.push(String(r[key]));
    return out.sort();
  };
  return {
    orders: await collect(client.pages.orders(), 'id'),
    orderItems: await collect(client.pages.orderItems(), 'id'),
    aois: await collect(client.pages.aois(), 'aoi_id'),
    indices: await collect(client.pages.indices(), 'id'),
    catalogs: await collect(client.pages.catalogs({}), 'id'),
  };
}

/** Catalog records the service holds (the demo seed's, plus one per fulfilled order). */
let SEEDED_CATALOG_RECORDS = 0;
beforeAll(async () => {
  service = await startService();
  const { client } = countingClient(service);
  SEEDED_CATALOG_RECORDS = (await client.searchCatalogs({ limit: 1 })).pagination.total ?? 0;
  expect(SEEDED_CATALOG_RECORDS).toBeGreaterThan(250);
});
afterAll(async () => {
  for (const db of opened) db.close();
  await service.close();
  tmp.remove();
});

describe('full sync', () => {
  it('mirrors every list of the service, with progress totals', async () => {
    const db = freshMirror();
    const { client } = countingClient(service);
    const events: SyncProgress[] = [];
    const engine = createSyncEngine({ db, client });
    const report = await engine.sync({ onProgress: (p) => events.push(p) });

    const expected = await serviceIds(client);
    expect(expected.catalogs).toHaveLength(SEEDED_CATALOG_RECORDS);
    expect(expected.orders.length).toBe(3);
    expect(expected.aois.length).toBe(2);
    expect(sorted(ids(db, 'SELECT id FROM mirror_orders'))).toEqual(expected.orders);
    expect(sorted(ids(db, 'SELECT id FROM mirror_order_items'))).toEqual(expected.orderItems);
    expect(sorted(ids(db, 'SELECT aoi_id AS id FROM mirror_aois'))).toEqual(expected.aois);
    expect(sorted(ids(db, 'SELECT id FROM mirror_indices'))).toEqual(expected.indices);
    expect(sorted(ids(db, 'SELECT id FROM catalog_records'))).toEqual(expected.catalogs);
    // Assets are paged per mirrored AOI and keep their AOI id.
    for (const aoiId of expected.aois) {
      const assets: string[] = [];
      for await (const page of client.pages.aoiAssets(aoiId))
        for (const a of page.items) assets.push(a.id);
      const mirrored = ids(db, `SELECT id FROM mirror_assets WHERE aoi_id = '${aoiId}'`);
      expect(sorted(mirrored)).toEqual(assets.sort());
    }
    // Every catalog record has its R*Tree entry (the demo footprints all have bounds).
    const rtree = db.sqlite.prepare('SELECT count(*) AS n FROM catalog_rtree').get() as {
      n: number;
    };
    expect(rtree.n).toBe(SEEDED_CATALOG_RECORDS);
    // Records of fulfilled orders are linked to their order and item through the mirrored tasks.
    const linked = db.sqlite
      .prepare(
        'SELECT count(*) AS n FROM catalog_records WHERE order_id IS NOT NULL AND order_item_id IS NOT NULL',
      )
      .get() as { n: number };
    expect(linked.n).toBe(3);

    const done = events.filter((e) => e.done).map((e) => e.resource);
    expect(done).toEqual(['orders', 'orderItems', 'aois', 'assets', 'indices', 'catalogs']);
    const lastCatalog = events.filter((e) => e.resource === 'catalogs').at(-1)!;
    expect(lastCatalog).toMatchObject({
      seen: SEEDED_CATALOG_RECORDS,
      total: SEEDED_CATALOG_RECORDS,
    });
    for (const s of report.resources) {
      expect(s.finishedAtUs, s.resource).not.toBeNull();
      expect(s.lastCompleteAtUs).toBe(s.finishedAtUs);
      expect(s.lastError).toBeNull();
    }
    // The stored JSON is the record as the service sent it.
    const [first] = await allItemsOf(client);
    const stored = db.sqlite
      .prepare(
        `SELECT ${COMPACT_LAYOUT.recordSql} AS record_json FROM catalog_records c WHERE c.id = ?`,
      )
      .get(first!.id) as { record_json: string };
    expect(JSON.parse(stored.record_json)).toEqual(first);
  });

  it('with read-ahead the mirror is the same', async () => {
    const db = freshMirror();
    const { client } = countingClient(service);
    await createSyncEngine({ db, client, prefetch: true, pageSize: 40 }).sync({
      resources: ['catalogs'],
    });
    const expected = await serviceIds(client);
    expect(sorted(ids(db, 'SELECT id FROM catalog_records'))).toEqual(expected.catalogs);
  });

  it('a second call while one runs rejects with SyncBusyError; the first completes', async () => {
    const db = freshMirror();
    const engine = createSyncEngine({ db, client: countingClient(service).client });
    const first = engine.sync({ resources: ['catalogs'] });
    await expect(engine.sync({ resources: ['indices'] })).rejects.toBeInstanceOf(SyncBusyError);
    // Another engine on the same database is refused too.
    const other = createSyncEngine({ db, client: countingClient(service).client });
    await expect(other.sync({ resources: ['indices'] })).rejects.toBeInstanceOf(SyncBusyError);
    await first;
    expect(engine.running).toBe(false);
    expect(engine.status().map((s) => s.resource)).toEqual(['catalogs']);
  });
});

async function allItemsOf(client: EoClient) {
  const out = [];
  for await (const r of allItems(client.pages.catalogs({ limit: 5 }))) {
    out.push(r);
    if (out.length === 5) break;
  }
  return out;
}

describe('what to mirror of the catalog', () => {
  it('saved searches: the mirror holds the union of their results, and nothing else', async () => {
    const db = freshMirror();
    const { client } = countingClient(service);
    const all = await client.searchCatalogs({ limit: 1000 });
    const collections = [...new Set(all.catalogs.map((c) => String(c.details.collection)))].sort();
    expect(collections.length).toBeGreaterThan(1);
    const searches = [
      { collections: [collections[0]!] },
      { ids: all.catalogs.slice(0, 7).map((c) => c.id) },
    ];
    const expected = new Set<string>();
    for (const search of searches)
      for await (const page of client.pages.catalogs(search))
        for (const r of page.items) expected.add(r.id);
    expect(expected.size).toBeLessThan(all.catalogs.length);

    // A full mirror first: narrowing the configuration sweeps what the searches no longer cover.
    await createSyncEngine({ db, client }).sync({ resources: ['catalogs'] });
    expect(ids(db, 'SELECT id FROM catalog_records')).toHaveLength(all.catalogs.length);
    const engine = createSyncEngine({ db, client, catalog: searches, pageSize: 25 });
    const events: SyncProgress[] = [];
    await engine.sync({ resources: ['catalogs'], onProgress: (p) => events.push(p) });
    expect(sorted(ids(db, 'SELECT id FROM catalog_records'))).toEqual([...expected].sort());
    expect(events.at(-1)).toMatchObject({ resource: 'catalogs', parts: 2, done: true });
    expect(engine.status()[0]!.removed).toBe(all.catalogs.length - expected.size);
  });

  it('rejects an invalid saved search when the engine is created', () => {
    const { client } = countingClient(service);
    expect(() =>
      createSyncEngine({ db: freshMirror(), client, catalog: [{ bbox: [10, 10, 5] as never }] }),
    ).toThrow(/catalog\[0\]/);
  });
});

describe('arguments', () => {
  it('unknown resource names are refused before anything is fetched', async () => {
    const counted = countingClient(service);
    const engine = createSyncEngine({ db: freshMirror(), client: counted.client });
    await expect(engine.sync({ resources: ['orders', 'nope' as never] })).rejects.toThrow(
      /unknown resources: nope/,
    );
    expect(counted.sent).toHaveLength(0);
  });
});

describe('resume', () => {
  it('an aborted pass resumes from its checkpoint, with the same pass, refetching no committed page', async () => {
    const db = freshMirror();
    const first = countingClient(service);
    const controller = new AbortController();
    const engine = createSyncEngine({ db, client: first.client, pageSize: 50, batchRecords: 50 });
    await expect(
      engine.sync({
        resources: ['catalogs'],
        signal: controller.signal,
        onProgress: (p) => {
          if (p.seen >= 100) controller.abort();
        },
      }),
    ).rejects.toThrow();
    const [interrupted] = engine.status();
    expect(interrupted).toMatchObject({
      resource: 'catalogs',
      part: 0,
      checkpoint: 100,
      seen: 100,
      finishedAtUs: null,
    });
    expect(interrupted!.lastError?.kind).toBe('abort');
    expect(ids(db, 'SELECT id FROM catalog_records')).toHaveLength(100);

    const second = countingClient(service);
    const resumed = createSyncEngine({ db, client: second.client, pageSize: 50, batchRecords: 50 });
    await resumed.sync({ resources: ['catalogs'] });
    const offsets = second.sent
      .filter((s) => s.path.endsWith('/catalogs/search'))
      .map((s) => s.offset);
    expect(offsets[0]).toBe(100);
    expect(offsets).not.toContain(0);
    expect(offsets).not.toContain(50);
    const [finished] = resumed.status();
    expect(finished).toMatchObject({
      passId: interrupted!.passId,
      seen: SEEDED_CATALOG_RECORDS,
      lastError: null,
    });
    expect(finished!.finishedAtUs).not.toBeNull();
    expect(ids(db, 'SELECT id FROM catalog_records')).toHaveLength(SEEDED_CATALOG_RECORDS);
  });
});

describe('failures', () => {
  it('a network failure mid-pass is recorded and the next sync resumes after the last commit', async () => {
    const db = freshMirror();
    let failAt: number | null = 150;
    const client = createEoClient({
      baseUrl: service.url,
      apiKey: service.key,
      retry: { maxAttempts: 1 },
      fetch: async (input, init) => {
        const offset =
          typeof init.body === 'string' ? (JSON.parse(init.body) as { offset?: number }).offset : 0;
        if (failAt !== null && offset === failAt)
          throw new TypeError('fetch failed: connection reset');
        return fetch(input, init);
      },
    });
    // No time-budget commits here: the batch boundaries must not depend on the machine's speed.
    const engine = createSyncEngine({
      db,
      client,
      pageSize: 50,
      batchRecords: 100,
      batchMs: 600_000,
    });
    await expect(engine.sync({ resources: ['catalogs'] })).rejects.toMatchObject({
      kind: 'network',
    });
    const [failed] = engine.status();
    // Pages at 0 and 50 were committed together; the page at 100 was buffered, not committed.
    expect(failed).toMatchObject({ checkpoint: 100, seen: 100, finishedAtUs: null });
    expect(failed!.lastError).toMatchObject({ kind: 'network' });
    failAt = null;
    await engine.sync({ resources: ['catalogs'] });
    const [done] = engine.status();
    expect(done).toMatchObject({
      passId: failed!.passId,
      seen: SEEDED_CATALOG_RECORDS,
      lastError: null,
    });
  });

  it('an API error is recorded with its status and code', async () => {
    const db = freshMirror();
    const client = createEoClient({
      baseUrl: service.url,
      apiKey: 'not-a-key',
      retry: { maxAttempts: 1 },
    });
    const engine = createSyncEngine({ db, client });
    await expect(engine.sync({ resources: ['indices'] })).rejects.toMatchObject({ status: 401 });
    expect(engine.status()[0]!.lastError).toMatchObject({ kind: 'api', status: 401 });
    expect(engine.status()[0]!.lastError!.code).toBeTruthy();
  });
});

describe('offset paging that misses a record', () => {
  it('a record the pass did not page through but the service still lists is kept, not swept', async () => {
    const db = freshMirror();
    const { client } = countingClient(service);
    await createSyncEngine({ db, client, pageSize: 50 }).sync({ resources: ['catalogs'] });
    let dropped: string | null = null;
    // As if a record before this page had been deleted mid-pass: one record of the page is
    // never seen (replaced by a neighbour), the page keeps its length.
    const shifting = createEoClient({
      baseUrl: service.url,
      apiKey: service.key,
      retry: { maxAttempts: 1 },
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        const body =
          typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
        if (!input.endsWith('/catalogs/search') || body.offset !== 100 || body.ids) return res;
        const json = (await res.json()) as { catalogs: Array<{ id: string }> };
        dropped = json.catalogs[0]!.id;
        json.catalogs[0] = json.catalogs[1]!;
        return new Response(JSON.stringify(json), {
          status: res.status,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const engine = createSyncEngine({ db, client: shifting, pageSize: 50 });
    await engine.sync({ resources: ['catalogs'], full: true });
    expect(dropped).not.toBeNull();
    expect(ids(db, `SELECT id FROM catalog_records WHERE id = '${dropped}'`)).toEqual([dropped]);
    expect(engine.status()[0]!.removed).toBe(0);
    expect(ids(db, 'SELECT id FROM catalog_records')).toHaveLength(SEEDED_CATALOG_RECORDS);
  });
});

describe('offset paging that misses an order item', () => {
  it('is kept when the service still lists it by id', async () => {
    const db = freshMirror();
    const { client } = countingClient(service);
    await createSyncEngine({ db, client, pageSize: 1 }).sync({ resources: ['orderItems'] });
    let first: unknown = null;
    let dropped: string | null = null;
    const shifting = createEoClient({
      baseUrl: service.url,
      apiKey: service.key,
      retry: { maxAttempts: 1 },
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        const url = new URL(input);
        if (!url.pathname.endsWith('/order-items') || url.searchParams.has('ids')) return res;
        const json = (await res.json()) as { order_items: Array<{ id: string }> };
        if (url.searchParams.get('offset') === '0') first = json.order_items[0];
        if (url.searchParams.get('offset') === '1') {
          dropped = json.order_items[0]!.id;
          json.order_items[0] = first as { id: string };
        }
        return new Response(JSON.stringify(json), {
          status: res.status,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const engine = createSyncEngine({ db, client: shifting, pageSize: 1 });
    await engine.sync({ resources: ['orderItems'] });
    expect(dropped).not.toBeNull();
    expect(ids(db, `SELECT id FROM mirror_order_items WHERE id = '${dropped}'`)).toEqual([dropped]);
    expect(engine.status()[0]!.removed).toBe(0);
  });
});

describe('plans', () => {
  it('an interrupted pass is not resumed under another catalog configuration', async () => {
    const db = freshMirror();
    const { client } = countingClient(service);
    const controller = new AbortController();
    const first = createSyncEngine({ db, client, pageSize: 50, batchRecords: 50 });
    await expect(
      first.sync({
        resources: ['catalogs'],
        signal: controller.signal,
        onProgress: (p) => {
          if (p.seen >= 50) controller.abort();
        },
      }),
    ).rejects.toThrow();
    const interrupted = first.status()[0]!;
    const counted = countingClient(service);
    const narrowed = createSyncEngine({
      db,
      client: counted.client,
      catalog: [{ collections: ['col-aurora-l2a'] }],
      pageSize: 50,
    });
    await narrowed.sync({ resources: ['catalogs'] });
    const done = narrowed.status()[0]!;
    expect(done.passId).not.toBe(interrupted.passId);
    expect(counted.sent[0]!.offset).toBe(0);
    expect(JSON.parse(done.plan)).toEqual([{ collections: ['col-aurora-l2a'] }]);
  });
});

describe('mark and sweep', () => {
  it('rows the service dropped go only when a pass completes', async () => {
    const db = freshMirror();
    const { client } = countingClient(service);
    const engine = createSyncEngine({ db, client, pageSize: 50, batchRecords: 50 });
    await engine.sync({ resources: ['catalogs'] });
    const before = sorted(ids(db, 'SELECT id FROM catalog_records'));
    const gone = before.slice(0, 5);
    makeCatalogDeleter(service.server.app.ctx.sqlite)(gone);
    try {
      // An interrupted pass deletes nothing.
      const controller = new AbortController();
      await expect(
        engine.sync({
          resources: ['catalogs'],
          full: true,
          signal: controller.signal,
          onProgress: (p) => {
            if (p.seen >= 50) controller.abort();
          },
        }),
      ).rejects.toThrow();
      expect(sorted(ids(db, 'SELECT id FROM catalog_records'))).toEqual(before);
      // The completed pass removes exactly what the service no longer has, R*Tree entries too.
      await engine.sync({ resources: ['catalogs'], full: true });
      const after = sorted(ids(db, 'SELECT id FROM catalog_records'));
      expect(after).toEqual(before.filter((id) => !gone.includes(id)));
      expect(engine.status()[0]!.removed).toBe(5);
      const rtree = db.sqlite.prepare('SELECT count(*) AS n FROM catalog_rtree').get() as {
        n: number;
      };
      expect(rtree.n).toBe(after.length);
    } finally {
      // Other tests count the seeded records: put them back (fresh copies from the mirror are gone,
      // so restart is not needed: reseeding restores missing demo records).
      const { seedDemo } = await import('@eo/reference-service');
      seedDemo(service.server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 6000 });
    }
  });
});

describe('cancellation', () => {
  it('an already aborted signal fetches nothing and records the abort', async () => {
    const db = freshMirror();
    const counted = countingClient(service);
    const engine = createSyncEngine({ db, client: counted.client });
    const controller = new AbortController();
    controller.abort();
    await expect(engine.sync({ signal: controller.signal })).rejects.toThrow();
    expect(counted.sent).toHaveLength(0);
    expect(engine.running).toBe(false);
  });

  it('aborting mid-sync stops paging and leaves the pass resumable', async () => {
    const db = freshMirror();
    const counted = countingClient(service);
    const engine = createSyncEngine({ db, client: counted.client, pageSize: 20, batchRecords: 20 });
    const controller = new AbortController();
    await expect(
      engine.sync({
        resources: ['catalogs'],
        signal: controller.signal,
        onProgress: (p) => {
          if (p.seen >= 40) controller.abort();
        },
      }),
    ).rejects.toThrow();
    const requests = counted.sent.length;
    expect(requests).toBeLessThan(SEEDED_CATALOG_RECORDS / 20);
    const [s] = engine.status();
    expect(s!.finishedAtUs).toBeNull();
    expect(s!.lastError?.kind).toBe('abort');
  });
});
