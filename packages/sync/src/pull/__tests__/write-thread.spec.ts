/**
 * A long list's batches committed from the write thread (`write-thread.ts`): the mirror, its
 * sync state and its drift are those of the same sync committed on the engine's connection;
 * an abort or a failed batch leaves a checkpoint that passes no record not stored, nothing is
 * written once the sync has returned, and the next sync resumes to the same mirror. Against a
 * service answering as a real one may (`varied-service.ts`: odd records, drift).
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildCatalogRecord, buildOrder, createRng } from '@eo/domain/testing';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorSnapshot } from '../../__tests__/mirror-snapshot';
import {
  driftingClient,
  startVariedService,
  type VariedService,
} from '../../__tests__/varied-service';
import { mirrorFiles } from '../../db/__tests__/temp';
import type { MirrorDatabase } from '../../db/open';
import { createSyncEngine, type SyncOptions } from '../engine';
import { makeSyncStateStore } from '../state';
import { startWriteThread } from '../write-thread';

const files = mirrorFiles('write-thread');
const freshMirror = () => files.fresh();
let service: VariedService;

/** Small pages and batches: a list of a few hundred records is many batches. */
function engineOn(db: MirrorDatabase, threaded: boolean) {
  const { client, drift } = driftingClient(service);
  return createSyncEngine({
    db,
    client,
    drift,
    pageSize: 40,
    // Batches of two pages (80 records), never cut by time: the failure below is at a known one.
    batchRecords: 60,
    batchMs: 3_600_000,
    writeThreadFrom: threaded ? 1 : false,
  });
}

const rng = createRng(29);
type Rec = Record<string, unknown>;
function catalog(): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < 400; i++) out.push(buildCatalogRecord({ id: `cat-${i}` }, { rng }) as Rec);
  const base = () => buildCatalogRecord({ id: 'x' }, { rng }) as Rec;
  // Oddities across page and batch boundaries: drift, a field not indexed, no id, a numeric id.
  out.splice(59, 0, { ...base(), id: 'odd-nano', created_at: '2024-03-01T10:00:00.123456789Z' });
  out.splice(121, 0, { ...base(), id: null });
  out.splice(122, 0, { ...base(), id: 4242 });
  const d = base();
  const details = d.details as Rec;
  out.splice(250, 0, {
    ...d,
    id: 'odd-datetime',
    details: { ...details, properties: { ...(details.properties as Rec), datetime: 'in May' } },
  });
  return out;
}

/** What a sync leaves beside the records: state (counts, checkpoint), drift, unindexed, marks. */
function bookkeeping(sqlite: Database.Database) {
  const all = (sql: string) => sqlite.prepare(sql).all();
  return {
    state: all(
      `SELECT resource, part, checkpoint, seen, total, drift, skipped, removed, incomplete
       FROM sync_state ORDER BY resource`,
    ),
    drift: all(
      'SELECT resource, source, record_id, path, message FROM sync_drift ORDER BY resource, seq',
    ),
    unindexed: all('SELECT resource, record_id, fields FROM mirror_unindexed ORDER BY 1, 2'),
    seen: all('SELECT record_id FROM mirror_catalog_seen_marks ORDER BY 1'),
    unpacked: all('SELECT count(*) AS n FROM catalog_unpacked'),
  };
}

const count = (db: MirrorDatabase, table: string) =>
  db.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
const checkpointOf = (db: MirrorDatabase) =>
  db.sqlite.prepare("SELECT seen, checkpoint FROM sync_state WHERE resource = 'catalogs'").get() as
    { seen: number; checkpoint: number } | undefined;

const ONLY: SyncOptions = { resources: ['orders', 'catalogs'] };
let inThread: {
  snapshot: ReturnType<typeof mirrorSnapshot>;
  books: ReturnType<typeof bookkeeping>;
};

beforeAll(async () => {
  service = await startVariedService();
  const orders = Array.from({ length: 90 }, (_, i) => buildOrder({ id: `order-${i}` }, { rng }));
  service.data = { ...service.data, orders, catalogs: catalog() };
  const db = freshMirror();
  await engineOn(db, false).sync(ONLY);
  inThread = { snapshot: mirrorSnapshot(db.sqlite), books: bookkeeping(db.sqlite) };
});
afterAll(async () => {
  await service.close();
  files.close();
});

describe('batches committed from the write thread', () => {
  it('leave the mirror, its state and its drift as the engine committing them itself', async () => {
    const db = freshMirror();
    await engineOn(db, true).sync(ONLY);
    expect(count(db, 'catalog_records')).toBe(403); // 404 sent, one without id
    expect(mirrorSnapshot(db.sqlite)).toEqual(inThread.snapshot);
    expect(bookkeeping(db.sqlite)).toEqual(inThread.books);
    expect(inThread.books.unindexed).toContainEqual(
      expect.objectContaining({ record_id: 'odd-datetime' }),
    );
    // The thread checkpointed its WAL into the file and truncated it as it ended.
    expect(fs.statSync(`${db.file}-wal`).size).toBe(0);
  });

  it('an abort leaves a checkpoint that passes no record not stored; the next sync resumes', async () => {
    const db = freshMirror();
    const engine = engineOn(db, true);
    const stop = new AbortController();
    let commits = 0;
    const synced = engine.sync({
      ...ONLY,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.resource === 'catalogs' && !p.done && ++commits === 2) stop.abort();
      },
    });
    await expect(synced).rejects.toThrow();
    // The sync has returned: its thread is closed, nothing more is written.
    const stored = count(db, 'catalog_records');
    const at = checkpointOf(db)!;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(403);
    // Every record the checkpoint passed is stored (the no-id record before it counts as seen).
    expect(stored).toBe(at.seen - (at.checkpoint > 121 ? 1 : 0));

    await engine.sync(ONLY);
    expect(mirrorSnapshot(db.sqlite)).toEqual(inThread.snapshot);
  });

  it('after a failed batch nothing more is written, the error says why, and the next sync completes', async () => {
    const db = freshMirror();
    // The checkpoint past 160 records fails: the catalog list's second batch (records 80-159).
    db.sqlite.exec(`CREATE TRIGGER fail_checkpoint BEFORE UPDATE OF checkpoint ON sync_state
      WHEN NEW.resource = 'catalogs' AND NEW.seen = 160
      BEGIN SELECT RAISE(ABORT, 'the disk said no'); END`);
    const engine = engineOn(db, true);
    await expect(engine.sync(ONLY)).rejects.toMatchObject({
      message: 'the disk said no',
      code: 'SQLITE_CONSTRAINT_TRIGGER',
    });
    // The batch before it is in, with its checkpoint; none from it on (a third may have been
    // handed over meanwhile: the thread refused it).
    expect(checkpointOf(db)).toEqual({ seen: 80, checkpoint: 80 });
    expect(count(db, 'catalog_records')).toBe(80);
    expect(engine.status().find((s) => s.resource === 'catalogs')?.lastError?.message).toContain(
      'the disk said no',
    );

    db.sqlite.exec('DROP TRIGGER fail_checkpoint');
    await engine.sync(ONLY);
    expect(mirrorSnapshot(db.sqlite)).toEqual(inThread.snapshot);
  });
});

describe('the write thread', () => {
  it('writes nothing after a failed batch, even one handed over before the failure was known', async () => {
    const db = freshMirror();
    makeSyncStateStore(db.sqlite).start('catalogs', 'pass-1', '', 0);
    db.sqlite.exec(`CREATE TRIGGER fail_first BEFORE UPDATE OF checkpoint ON sync_state
      WHEN NEW.seen = 1 BEGIN SELECT RAISE(ABORT, 'first batch refused'); END`);
    const thread = startWriteThread(db.file);
    const batch = (i: number) => ({
      resource: 'catalogs' as const,
      passId: 'pass-1',
      records: { items: [buildCatalogRecord({ id: `cat-${i}` }, { rng })] },
      pageIssues: [],
      where: { part: 0, checkpoint: i + 1, seen: i + 1, total: 2 },
    });
    const written: number[] = [];
    try {
      // Both posted before any answer: the thread has the second when the first fails.
      const first = thread.hand(batch(0), () => written.push(0));
      const second = thread.hand(batch(1), () => written.push(1));
      await first;
      await expect(second).rejects.toThrow('first batch refused');
      await expect(thread.drain()).rejects.toThrow('first batch refused');
      await expect(thread.hand(batch(2), () => written.push(2))).rejects.toThrow(
        'first batch refused',
      );
      expect(thread.broken).toBe(true);
    } finally {
      await thread.close();
    }
    expect(written).toEqual([]);
    expect(count(db, 'catalog_records')).toBe(0);
    expect(checkpointOf(db)).toEqual({ seen: 0, checkpoint: 0 });
  });

  it('says so when its mirror cannot be opened, and a batch handed over fails', async () => {
    const thread = startWriteThread(path.join(files.dir, 'no-such-mirror.db'));
    try {
      await expect(
        thread.hand(
          {
            resource: 'catalogs',
            passId: 'p',
            records: { items: [] },
            pageIssues: [],
            where: { part: 0, checkpoint: 0, seen: 0, total: 0 },
          },
          () => undefined,
        ),
      ).resolves.toBeUndefined();
      await expect(thread.drain()).rejects.toThrow(/unable to open|does not exist/);
    } finally {
      await thread.close();
    }
  });
});
