/**
 * Incremental sync against the real service: after a full pass, a re-sync fetches only the
 * records changed since (plus the overlap window), upserts them and sweeps nothing; a full pass
 * sweeps deletions; a service refusing the change filter gets full passes, remembered.
 */
import { COMPACT_LAYOUT } from '@eo/catalog-store';
import { allItems } from '@eo/api-client';
import { readInstant } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorDatabase } from '../../db/open';
import { mirrorFiles } from '../../db/__tests__/temp';
import type { ResourceName } from '../../mirror/writers';
import { createSyncEngine, type SyncEngine } from '../engine';
import { INCREMENTAL_OVERLAP_US } from '../incremental';
import {
  ageCatalogRecords,
  changeCatalogRecords,
  deleteCatalogRecords,
  meteredClient,
  serviceCatalog,
} from './incremental-service';
import { addCatalogCopies, createAois, startService, type TestService } from './service';

let service: TestService;
const files = mirrorFiles('incremental');
const freshMirror = () => files.fresh();
beforeAll(async () => {
  service = await startService();
  // Changes are stamped "two hours after" the catalog: it must be older than that.
  ageCatalogRecords(service, 4 * 3600_000);
});
afterAll(async () => {
  await service.close();
  files.close();
});

const mirrorCatalog = (db: MirrorDatabase) =>
  new Map(
    (
      db.sqlite
        .prepare(`SELECT c.id, ${COMPACT_LAYOUT.recordSql} AS record_json FROM catalog_records c`)
        .all() as Array<{
        id: string;
        record_json: string;
      }>
    ).map((r) => [r.id, r.record_json]),
  );
const serviceById = () => new Map(serviceCatalog(service).map((r) => [r.id, JSON.stringify(r)]));
const updatedUs = (r: { details: { properties: Record<string, unknown> } }) =>
  readInstant(r.details.properties['updated']) ?? 0;
const status = (engine: SyncEngine, resource: ResourceName) =>
  engine.status().find((s) => s.resource === resource)!;

describe('incremental catalog sync', () => {
  it('fetches only what changed, sweeps nothing, and the next full pass sweeps deletions', async () => {
    const db = freshMirror();
    const { client, transfer, reset } = meteredClient(service);
    const engine = createSyncEngine({ db, client });
    await engine.sync({ resources: ['catalogs'] });
    expect(status(engine, 'catalogs')).toMatchObject({ passMode: 'full', incomplete: false });
    const before = serviceCatalog(service);
    expect(transfer.records['catalogs']).toBe(before.length);

    // Changes after the pass: 4 records rewritten, 3 added, 2 deleted.
    const watermark = Math.max(...before.map(updatedUs));
    // Two hours later: past the overlap, so the next watermark leaves the old records behind.
    const later = new Date(watermark / 1000 + 2 * 3600_000).toISOString();
    changeCatalogRecords(service, before.slice(10, 14), later);
    addCatalogCopies(service, 3);
    const added = serviceCatalog(service).filter((r) => !before.some((b) => b.id === r.id));
    expect(added).toHaveLength(3);
    changeCatalogRecords(service, added, later);
    const deleted = [before[20]!.id, before[21]!.id];
    deleteCatalogRecords(service, deleted);

    // What an incremental pass must fetch: changed after the watermark minus the overlap.
    const expected = serviceCatalog(service).filter(
      (r) => updatedUs(r) > watermark - INCREMENTAL_OVERLAP_US,
    );
    expect(expected.length).toBeGreaterThan(7); // the overlap brings some old ones
    expect(expected.length).toBeLessThan(before.length / 4);

    reset();
    await engine.sync({ resources: ['catalogs'] });
    expect(status(engine, 'catalogs')).toMatchObject({
      passMode: 'incremental',
      removed: 0,
      incomplete: false,
    });
    expect(transfer.records['catalogs']).toBe(expected.length);
    expect(transfer.asked.every((a) => a.includes('"updated":{"gt":'))).toBe(true);
    // Level with the service except the deleted records, which only a full pass removes.
    const afterIncremental = mirrorCatalog(db);
    const service1 = serviceById();
    for (const id of deleted) expect(afterIncremental.has(id)).toBe(true);
    for (const id of deleted) afterIncremental.delete(id);
    expect(afterIncremental).toEqual(service1);

    // The watermark moved to the changes: the next incremental pass fetches only those again.
    reset();
    await engine.sync({ resources: ['catalogs'] });
    expect(status(engine, 'catalogs')).toMatchObject({ passMode: 'incremental', removed: 0 });
    expect(transfer.records['catalogs']).toBe(7);

    reset();
    await engine.sync({ resources: ['catalogs'], full: true });
    expect(status(engine, 'catalogs')).toMatchObject({ passMode: 'full', removed: 2 });
    expect(transfer.records['catalogs']).toBe(service1.size);
    expect(mirrorCatalog(db)).toEqual(serviceById());
  });

  it('falls back to full passes when the service refuses the change filter, and says so', async () => {
    const db = freshMirror();
    const refuse = (_url: URL, body: string | null) => body?.includes('"updated":{"gt"') ?? false;
    const { client, transfer, reset } = meteredClient(service, refuse);
    const engine = createSyncEngine({ db, client });
    await engine.sync({ resources: ['catalogs'] });
    const total = serviceCatalog(service).length;

    reset();
    await engine.sync({ resources: ['catalogs'] });
    const s = status(engine, 'catalogs');
    expect(s).toMatchObject({ passMode: 'full', incomplete: false });
    expect(s.incrementalRejected?.status).toBe(400);
    expect(transfer.records['catalogs']).toBe(total);

    // Remembered: the next sync does not ask with the filter again.
    reset();
    await engine.sync({ resources: ['catalogs'] });
    expect(transfer.asked.some((a) => a.includes('"updated":{"gt"'))).toBe(false);
    expect(mirrorCatalog(db)).toEqual(serviceById());
  });

  it('resumes an interrupted incremental pass with the same filter', async () => {
    const db = freshMirror();
    const { client, transfer, reset } = meteredClient(service);
    const engine = createSyncEngine({ db, client, pageSize: 2, batchRecords: 2 });
    await engine.sync({ resources: ['catalogs'] });
    const before = serviceCatalog(service);
    const watermark = Math.max(...before.map(updatedUs));
    changeCatalogRecords(
      service,
      before.slice(30, 36),
      new Date(watermark / 1000 + 60_000).toISOString(),
    );

    reset();
    const stop = new AbortController();
    await expect(
      engine.sync({
        resources: ['catalogs'],
        signal: stop.signal,
        onProgress: (p) => {
          if (p.seen >= 2) stop.abort();
        },
      }),
    ).rejects.toThrow();
    const interrupted = status(engine, 'catalogs');
    expect(interrupted).toMatchObject({ passMode: 'incremental', finishedAtUs: null });
    expect(interrupted.checkpoint).toBeGreaterThan(0);
    const firstAsked = transfer.asked[0]!;

    reset();
    await engine.sync({ resources: ['catalogs'] });
    expect(status(engine, 'catalogs')).toMatchObject({ passMode: 'incremental', removed: 0 });
    // Same filter, from the checkpoint on.
    const filter = /"updated":\{"gt":"[^"]+"\}/.exec(firstAsked)![0];
    expect(transfer.asked.every((a) => a.includes(filter))).toBe(true);
    expect(transfer.asked[0]).toContain(`"offset":${interrupted.checkpoint}`);
    expect(mirrorCatalog(db)).toEqual(serviceById());
  });
});

describe('incremental AOI sync', () => {
  it('asks for AOIs updated since the watermark and upserts them; a full pass is due after fullEveryUs', async () => {
    const db = freshMirror();
    const { client, transfer, reset } = meteredClient(service);
    let now = Date.now() * 1000;
    const engine = createSyncEngine({
      db,
      client,
      incrementalOverlapUs: 0,
      fullEveryUs: 3600e6,
      nowUs: () => now,
    });
    await service.server.app.ctx.worker.drain(); // earlier tests' AOIs settled before the pass
    await engine.sync({ resources: ['aois'] });
    const watermark = db.sqlite
      .prepare('SELECT max(updated_at_us) FROM mirror_aois')
      .pluck()
      .get() as number;
    await createAois(client, 1); // a change after the pass
    await service.server.app.ctx.worker.drain(); // its background steps update it: done before counting
    const all = [];
    for await (const a of allItems(client.pages.aois())) all.push(a);
    const expected = all.filter((a) => (readInstant(a.updated_at) ?? 0) >= watermark);
    expect(expected.length).toBeGreaterThan(0);
    // Usually only the new AOI; the service's own background steps may have touched others.
    expect(expected.map((a) => a.aoi_id)).toContain(all.at(-1)!.aoi_id);

    reset();
    await engine.sync({ resources: ['aois'] });
    expect(status(engine, 'aois')).toMatchObject({ passMode: 'incremental', removed: 0 });
    expect(transfer.records['aois']).toBe(expected.length);
    expect(transfer.asked.every((a) => a.includes('updated_at='))).toBe(true);

    now += 3600e6;
    reset();
    await engine.sync({ resources: ['aois'] });
    expect(status(engine, 'aois')).toMatchObject({ passMode: 'full' });
    expect(transfer.records['aois']).toBe(all.length);
  });
});
