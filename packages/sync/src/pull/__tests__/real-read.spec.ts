/**
 * The engine against a service that answers as a real one may (a small service on 127.0.0.1,
 * `varied-service.ts`): odd timestamp layouts, null or missing `details`, numbers as strings,
 * numeric ids, a record without id, and a `total` larger than what it lists. Every record with
 * an id is stored and findable, drift is counted with samples, a later sync moves on, and a
 * pass that ended short of the total sweeps nothing.
 */
import { createEoClient } from '@eo/api-client';
import {
  buildAoi,
  buildAsset,
  buildCatalogRecord,
  buildOrder,
  buildSpectralIndex,
  createRng,
} from '@eo/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorDatabase } from '../../db/open';
import { mirrorFiles } from '../../db/__tests__/temp';
import {
  driftingClient,
  startVariedService,
  type VariedService,
} from '../../__tests__/varied-service';
import { createDriftInbox } from '../drift';
import { createSyncEngine } from '../engine';

const files = mirrorFiles('real-read');
const freshMirror = () => files.fresh();
let service: VariedService;
function engineOn(db: MirrorDatabase) {
  const { client, drift } = driftingClient(service);
  return createSyncEngine({ db, client, drift, pageSize: 50, batchRecords: 60 });
}
const column = (db: MirrorDatabase, sql: string) => db.sqlite.prepare(sql).pluck().all();

const rng = createRng(11);
const good = (i: number) => buildCatalogRecord({ id: `cat-${i}` }, { rng });
type Rec = Record<string, unknown> & { details: Record<string, unknown> };
function withProps(r: Rec, props: Record<string, unknown>): Rec {
  const d = r.details;
  return { ...r, details: { ...d, properties: { ...(d.properties as object), ...props } } };
}

/** One record per oddity a real service sends; the expected µs of its created_at where read. */
function oddCatalog(): Rec[] {
  const r = () => good(0) as unknown as Rec & { id: string };
  const odd: Rec[] = [
    { ...r(), id: 'odd-nano', created_at: '2024-03-01T10:00:00.123456789Z' },
    { ...r(), id: 'odd-offset', created_at: '2024-03-01T15:30:00+05:30' },
    { ...r(), id: 'odd-naive', created_at: '2024-03-01T10:00:00' },
    { ...r(), id: 'odd-space', created_at: '2024-03-01 10:00:00.5+00:00' },
    { ...r(), id: 'odd-epoch', created_at: 1709287200 },
    { ...r(), id: 'odd-null-details', details: null as unknown as Rec['details'] },
    withProps({ ...r(), id: 'odd-strings' }, { 'eo:cloud_cover': '12.5' }),
    withProps({ ...r(), id: 'odd-datetime' }, { datetime: 'sometime in May' }),
    { ...r(), id: 4242 },
    { ...r(), id: null },
  ];
  const { details: _d, ...noDetails } = r();
  odd.push({ ...(noDetails as unknown as Rec), id: 'odd-no-details' });
  return odd;
}

beforeAll(async () => {
  service = await startVariedService();
});
afterAll(async () => {
  await service.close();
  files.close();
});

describe('a catalog as a real service sends it', () => {
  it('every record with an id is stored and findable; drift counted with samples; the next sync moves on', async () => {
    const catalogs: Rec[] = [];
    for (let i = 1; i <= 120; i++) catalogs.push(good(i) as unknown as Rec);
    catalogs.splice(55, 0, ...oddCatalog()); // across a page and a commit boundary
    service.data = { ...service.data, catalogs };
    const db = freshMirror();
    const engine = engineOn(db);
    await engine.sync({ resources: ['catalogs'] });

    const stored = new Set(column(db, 'SELECT id FROM catalog_records') as string[]);
    const expected = catalogs.map((c) => c.id).filter((id) => id !== null && id !== '');
    expect([...stored].sort()).toEqual(expected.map(String).sort());
    expect(stored.has('4242')).toBe(true);
    const found = engine.searchCatalog({
      ids: ['odd-nano', 'odd-null-details', 'odd-no-details', '4242'],
    });
    expect(found.catalogs.map((c) => String(c.id)).sort()).toEqual(
      ['4242', 'odd-nano', 'odd-no-details', 'odd-null-details'].sort(),
    );

    const [status] = engine.status();
    expect(status).toMatchObject({
      resource: 'catalogs',
      incomplete: false,
      skipped: 1,
      notIndexed: 1, // odd-datetime: stored, its datetime column NULL
    });
    // Every odd record differs from the spec; the good ones do not.
    expect(status!.drift).toBe(oddCatalog().length);
    expect(status!.finishedAtUs).not.toBeNull();
    const samples = engine.driftSamples();
    expect(samples.length).toBeGreaterThan(0);
    expect(samples).toContainEqual(
      expect.objectContaining({
        resource: 'catalogs',
        source: 'schema',
        recordId: 'odd-nano',
        path: 'created_at',
      }),
    );
    expect(samples).toContainEqual(
      expect.objectContaining({
        source: 'skipped',
        recordId: null,
        path: 'id',
        message: 'catalogs (no id): id: no usable id (received null); the record was not stored',
      }),
    );
    expect(samples).toContainEqual(
      expect.objectContaining({
        source: 'not-indexed',
        recordId: 'odd-datetime',
        path: 'details.properties.datetime',
      }),
    );
    // Read as unambiguous: the offset, the nanoseconds, the epoch.
    const createdOf = (id: string) =>
      db.sqlite.prepare('SELECT created_at_us FROM catalog_records WHERE id = ?').pluck().get(id);
    expect(createdOf('odd-offset')).toBe(createdOf('odd-naive'));
    expect(createdOf('odd-epoch')).toBe(createdOf('odd-naive'));
    expect(createdOf('odd-nano')).toBe((createdOf('odd-naive') as number) + 123457);
    // Strings coerced for the columns: the cloud filter finds it.
    const cloudy = engine.searchCatalog({
      ids: ['odd-strings'],
      query: { 'eo:cloud_cover': { gte: 12.5, lte: 12.5 } },
    });
    expect(cloudy.catalogs.map((c) => c.id)).toEqual(['odd-strings']);
    expect(engine.searchCatalog.notIndexed()).toBe(1);

    // The next sync starts a new pass and completes it: nothing blocks on the odd records.
    const before = status!.passId;
    await engine.sync({ resources: ['catalogs'] });
    const [again] = engine.status();
    expect(again!.passId).not.toBe(before);
    expect(again!.finishedAtUs).not.toBeNull();
    expect(again!.drift).toBe(oddCatalog().length);
    expect(column(db, 'SELECT count(*) FROM catalog_records')).toEqual([expected.length]);
  });
});

describe('the other lists as a real service sends them', () => {
  it('numeric ids are stored as strings; a record without id is skipped and counted', async () => {
    const aoi = buildAoi({ aoi_id: 'aoi-1' }, { rng });
    service.data = {
      ...service.data,
      orders: [
        { ...buildOrder({}, { rng }), id: 101 },
        { ...buildOrder({}, { rng }), id: undefined },
        { ...buildOrder({}, { rng }), id: 'ord-x', created_at: '2024-03-01T10:00:00.123456789Z' },
      ],
      aois: [{ ...aoi, aoi_id: 7, created_at: '2022-11-14T12:55:49.125928+00:00' }],
      assets: { '7': [{ ...buildAsset({}, { rng }), id: 8, aoi_id: 7 }] },
      indices: [{ ...buildSpectralIndex({}, { rng }), id: 9 }],
    };
    const db = freshMirror();
    const engine = engineOn(db);
    await engine.sync({ resources: ['orders', 'aois', 'assets', 'indices'] });
    expect(column(db, 'SELECT id FROM mirror_orders ORDER BY id')).toEqual(['101', 'ord-x']);
    expect(column(db, 'SELECT aoi_id FROM mirror_aois')).toEqual(['7']);
    expect(column(db, 'SELECT id FROM mirror_assets')).toEqual(['8']);
    expect(column(db, 'SELECT id FROM mirror_indices')).toEqual(['9']);
    const orders = engine.status().find((s) => s.resource === 'orders')!;
    expect(orders).toMatchObject({ skipped: 1, incomplete: false });
    expect(orders.drift).toBe(3);
    expect(engine.status().every((s) => s.finishedAtUs !== null)).toBe(true);
  });
});

describe('a pass that ends short of the total', () => {
  it('is incomplete: it sweeps nothing, and the next sync starts a new pass', async () => {
    const catalogs = Array.from({ length: 80 }, (_, i) => good(200 + i) as unknown as Rec);
    service.data = { ...service.data, catalogs };
    service.extraTotal = 0;
    const db = freshMirror();
    const engine = engineOn(db);
    await engine.sync({ resources: ['catalogs'] });
    expect(engine.status()[0]).toMatchObject({ incomplete: false, seen: 80 });

    // The service now lists 30 records but says there are 80: 50 were not received.
    service.data = { ...service.data, catalogs: catalogs.slice(0, 30) };
    service.extraTotal = 50;
    await engine.sync({ resources: ['catalogs'], full: true });
    const short = engine.status()[0]!;
    expect(short).toMatchObject({ incomplete: true, seen: 30, total: 80, removed: 0 });
    expect(column(db, 'SELECT count(*) FROM catalog_records')).toEqual([80]);

    // The next sync is a new pass (not a resume past the end); listed in full, it sweeps.
    service.extraTotal = 0;
    await engine.sync({ resources: ['catalogs'], full: true });
    const full = engine.status()[0]!;
    expect(full.passId).not.toBe(short.passId);
    expect(full).toMatchObject({ incomplete: false, seen: 30, removed: 50 });
    expect(column(db, 'SELECT count(*) FROM catalog_records')).toEqual([30]);
  });

  it('a service that caps its pages: nothing it still lists is swept', async () => {
    const catalogs = Array.from({ length: 250 }, (_, i) => good(400 + i) as unknown as Rec);
    service.data = { ...service.data, catalogs };
    const db = freshMirror();
    const drift = createDriftInbox();
    const client = createEoClient({ baseUrl: service.url, apiKey: service.key });
    const engine = createSyncEngine({ db, client, drift, pageSize: 1000 });
    await engine.sync({ resources: ['catalogs'] });
    expect(column(db, 'SELECT count(*) FROM catalog_records')).toEqual([250]);

    // 100 per page, `limit: 1000` echoed. Whether the pager pages on (total known) or stops
    // after the first short page, every record the service lists stays in the mirror.
    service.pageCap = 100;
    try {
      await engine.sync({ resources: ['catalogs'] });
    } finally {
      service.pageCap = Infinity;
    }
    const after = engine.status()[0]!;
    expect(column(db, 'SELECT count(*) FROM catalog_records')).toEqual([250]);
    expect(after.removed).toBe(0);
    if (after.seen < 250) expect(after).toMatchObject({ incomplete: true, total: 250 });
    else expect(after.incomplete).toBe(false);
  });

  it('a service that ignores the offset (no total): the repeated page ends the pass incomplete', async () => {
    const catalogs = Array.from({ length: 80 }, (_, i) => good(700 + i) as unknown as Rec);
    service.data = { ...service.data, catalogs };
    const db = freshMirror();
    const engine = engineOn(db); // 50 per page
    await engine.sync({ resources: ['catalogs'] });
    expect(engine.status()[0]).toMatchObject({ incomplete: false, seen: 80 });

    service.ignoreOffset = true;
    try {
      await engine.sync({ resources: ['catalogs'] });
    } finally {
      service.ignoreOffset = false;
    }
    expect(engine.status()[0]).toMatchObject({ incomplete: true, seen: 50, removed: 0 });
    expect(column(db, 'SELECT count(*) FROM catalog_records')).toEqual([80]);
  });
});
