/**
 * The pull engine with read-ahead over a slow link (the real service on 127.0.0.1, each response
 * held back by the client's fetch): checkpoints move only by pages handed over, so a sync stopped
 * with pages in flight or waiting their turn resumes exactly at its checkpoint, nothing lost or
 * written twice.
 */
import { allItems, createEoClient, type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorDatabase } from '../../db/open';
import { createSyncEngine } from '../engine';
import { mirrorFiles, startService, syncAbortedAt, type TestService } from './service';

let service: TestService;
const mirrors = mirrorFiles('read-ahead');
const freshMirror = () => mirrors.fresh();
let serviceIds: string[] = [];

beforeAll(async () => {
  service = await startService();
  const client = createEoClient({ baseUrl: service.url, apiKey: service.key });
  for await (const r of allItems(client.pages.catalogs({}, { pageSize: 1000 })))
    serviceIds.push(r.id);
  serviceIds = serviceIds.sort();
  expect(serviceIds.length).toBeGreaterThan(200);
});
afterAll(async () => {
  mirrors.close();
  await service.close();
});

interface SlowLink {
  readonly client: EoClient;
  /** Catalog search offsets asked for, in order. */
  readonly offsets: number[];
  /** Requests cancelled while held back. */
  readonly aborted: () => number;
}

/** A client whose requests wait `delayMs` before leaving (cancellable), as on a slow link. */
function slowLink(delayMs: number, failAt?: number): SlowLink {
  const offsets: number[] = [];
  let aborted = 0;
  const client = createEoClient({
    baseUrl: service.url,
    apiKey: service.key,
    retry: { maxAttempts: 1 },
    fetch: async (input, init) => {
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as object) : {};
      const offset = (body as { offset?: number }).offset ?? 0;
      if (input.endsWith('/catalogs/search') && !('ids' in body)) offsets.push(offset);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delayMs);
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          aborted++;
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
      if (offset === failAt) throw new TypeError('fetch failed: connection reset');
      return fetch(input, init);
    },
  });
  return { client, offsets, aborted: () => aborted };
}

const mirrored = (db: MirrorDatabase) =>
  (
    db.sqlite.prepare('SELECT id FROM catalog_records ORDER BY id').all() as Array<{ id: string }>
  ).map((r) => r.id);

describe('read-ahead and checkpoints', () => {
  it('a sync aborted with pages in flight resumes at its checkpoint: nothing lost or doubled', async () => {
    const db = freshMirror();
    const link = slowLink(40);
    // Batches by record count only, so the commit points do not depend on the machine's speed.
    const options = { db, pageSize: 20, batchRecords: 40, batchMs: 600_000, prefetch: 4 };
    const engine = createSyncEngine({ ...options, client: link.client });
    expect(await syncAbortedAt(engine, ['catalogs'], 80)).toMatchObject({ name: 'AbortError' });
    const [interrupted] = engine.status();
    expect(interrupted).toMatchObject({ checkpoint: 80, seen: 80, finishedAtUs: null });
    expect(interrupted!.lastError?.kind).toBe('abort');
    expect(mirrored(db)).toHaveLength(80);
    // Mid-window: pages past the checkpoint had been asked for, and those in flight were cancelled.
    expect(Math.max(...link.offsets)).toBeGreaterThanOrEqual(120);
    expect(link.aborted()).toBeGreaterThan(0);

    const again = slowLink(5);
    const resumed = createSyncEngine({ ...options, client: again.client });
    await resumed.sync({ resources: ['catalogs'] });
    expect(again.offsets[0]).toBe(80);
    expect(Math.min(...again.offsets)).toBe(80);
    const [done] = resumed.status();
    // `seen` counts records written by the pass: one more write of any page would show here.
    expect(done).toMatchObject({
      passId: interrupted!.passId,
      seen: serviceIds.length,
      lastError: null,
    });
    expect(done!.finishedAtUs).not.toBeNull();
    expect(mirrored(db)).toEqual(serviceIds);
  });

  it('a page that fails while read ahead stops the sync after the pages before it', async () => {
    const db = freshMirror();
    const options = { db, pageSize: 20, batchRecords: 40, batchMs: 600_000, prefetch: 4 };
    const engine = createSyncEngine({ ...options, client: slowLink(30, 100).client });
    await expect(engine.sync({ resources: ['catalogs'] })).rejects.toMatchObject({
      kind: 'network',
    });
    // Pages 0-60 committed in two batches; page 80 buffered, not committed; 100 failed.
    const [failed] = engine.status();
    expect(failed).toMatchObject({ checkpoint: 80, seen: 80, finishedAtUs: null });
    expect(mirrored(db)).toHaveLength(80);

    const again = slowLink(5);
    await createSyncEngine({ ...options, client: again.client }).sync({ resources: ['catalogs'] });
    expect(again.offsets[0]).toBe(80);
    expect(mirrored(db)).toEqual(serviceIds);
  });

  it('the default (adaptive) mirrors the same records over a slow link', async () => {
    const db = freshMirror();
    const link = slowLink(30);
    await createSyncEngine({ db, client: link.client, pageSize: 50 }).sync({
      resources: ['catalogs'],
    });
    expect(mirrored(db)).toEqual(serviceIds);
    // Every page once: no offset asked for twice (the total is known, the counts constant).
    expect(new Set(link.offsets).size).toBe(link.offsets.length);
  });
});
