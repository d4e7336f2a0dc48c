/**
 * The pull engine with read-ahead (the real service on 127.0.0.1, pages held back or failed by
 * the client's fetch, by offset, never by time): checkpoints move only by pages handed over, so a sync stopped
 * with pages in flight or waiting their turn resumes exactly at its checkpoint, nothing lost or
 * written twice.
 */
import { allItems, createEoClient, type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorDatabase } from '../../db/open';
import { createSyncEngine } from '../engine';
import { mirrorFiles } from '../../db/__tests__/temp';
import { startService, type TestService } from './service';

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

interface Link {
  readonly client: EoClient;
  /** Catalog search offsets asked for, in order. */
  readonly offsets: number[];
  /** Requests cancelled while held back. */
  readonly aborted: () => number;
}

interface LinkOptions {
  /** Catalog pages at or past this offset are held until the sync is aborted (never answered). */
  readonly holdFrom?: number;
  /** This page's request fails at once, as a connection reset. */
  readonly failAt?: number;
  /** Told of each catalog page asked for, after it is recorded in `offsets`. */
  readonly onAsked?: () => void;
  /** Each request waits this long before leaving, as on a slow link (no assertion depends on it). */
  readonly delayMs?: number;
}

/** Resolves on abort of `signal` by rejecting with an AbortError (counted), never on its own. */
function heldUntilAbort(signal: AbortSignal | undefined | null, onAbort: () => void) {
  return new Promise<never>((_, reject) => {
    const abort = () => {
      onAbort();
      reject(new DOMException('aborted', 'AbortError'));
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * A client in front of the service whose pages are held, failed or slowed as `o` says: what a
 * test asserts depends on which pages were answered, never on how long anything took.
 */
function link(o: LinkOptions = {}): Link {
  const offsets: number[] = [];
  let aborted = 0;
  const client = createEoClient({
    baseUrl: service.url,
    apiKey: service.key,
    retry: { maxAttempts: 1 },
    fetch: async (input, init) => {
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as object) : {};
      const offset = (body as { offset?: number }).offset ?? 0;
      const page = input.endsWith('/catalogs/search') && !('ids' in body);
      if (page) {
        offsets.push(offset);
        o.onAsked?.();
      }
      if (page && offset === o.failAt) throw new TypeError('fetch failed: connection reset');
      if (page && o.holdFrom !== undefined && offset >= o.holdFrom)
        return heldUntilAbort(init.signal, () => aborted++);
      if (o.delayMs) await new Promise((resolve) => setTimeout(resolve, o.delayMs));
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
    // Pages from offset 80 on are asked for (read ahead) but never answered: the sync is
    // stopped once 80 records are committed and the window has reached offset 120, so pages
    // past the checkpoint are in flight whatever the machine's speed.
    const controller = new AbortController();
    let seen = 0;
    const stopWhenReady = () => {
      if (seen >= 80 && held.offsets.includes(120)) controller.abort();
    };
    const held = link({ holdFrom: 80, onAsked: stopWhenReady });
    // Batches by record count only, so the commit points do not depend on the machine's speed.
    const options = { db, pageSize: 20, batchRecords: 40, batchMs: 600_000, prefetch: 4 };
    const engine = createSyncEngine({ ...options, client: held.client });
    const stopped = engine.sync({
      resources: ['catalogs'],
      signal: controller.signal,
      onProgress: (p) => {
        seen = p.seen;
        stopWhenReady();
      },
    });
    // Bounded: a sync that never reaches that point is stopped and says so.
    let never = '';
    const guard = setTimeout(() => {
      never = `after 10 s: ${seen} records committed, offsets asked ${held.offsets.join(',')}`;
      controller.abort();
    }, 10_000);
    await expect(stopped).rejects.toMatchObject({ name: 'AbortError' });
    clearTimeout(guard);
    expect(never, 'the sync never committed 80 records with offset 120 asked for').toBe('');
    const [interrupted] = engine.status();
    expect(interrupted).toMatchObject({ checkpoint: 80, seen: 80, finishedAtUs: null });
    expect(interrupted!.lastError?.kind).toBe('abort');
    expect(mirrored(db)).toHaveLength(80);
    // Mid-window: pages past the checkpoint had been asked for, and those in flight were cancelled.
    expect(Math.max(...held.offsets)).toBeGreaterThanOrEqual(120);
    expect(held.aborted()).toBeGreaterThanOrEqual(3);

    const again = link();
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
    // Page 100 fails at once, before the pages ahead of it are answered: the failure still
    // surfaces only when its turn comes.
    const engine = createSyncEngine({ ...options, client: link({ failAt: 100 }).client });
    await expect(engine.sync({ resources: ['catalogs'] })).rejects.toMatchObject({
      kind: 'network',
    });
    // Pages 0-60 committed in two batches; page 80 buffered, not committed; 100 failed.
    const [failed] = engine.status();
    expect(failed).toMatchObject({ checkpoint: 80, seen: 80, finishedAtUs: null });
    expect(mirrored(db)).toHaveLength(80);

    const again = link();
    await createSyncEngine({ ...options, client: again.client }).sync({ resources: ['catalogs'] });
    expect(again.offsets[0]).toBe(80);
    expect(mirrored(db)).toEqual(serviceIds);
  });

  it('the default (adaptive) mirrors the same records over a slow link', async () => {
    const db = freshMirror();
    const slow = link({ delayMs: 30 });
    await createSyncEngine({ db, client: slow.client, pageSize: 50 }).sync({
      resources: ['catalogs'],
    });
    expect(mirrored(db)).toEqual(serviceIds);
    // Every page once: no offset asked for twice (the total is known, the counts constant).
    expect(new Set(slow.offsets).size).toBe(slow.offsets.length);
  });
});
