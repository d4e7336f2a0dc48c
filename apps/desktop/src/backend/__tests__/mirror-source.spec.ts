/**
 * The mirror belongs to the service it was synced from: after the service URL moves to another
 * origin, the sync status claims no "last complete sync" for the new service until a sync
 * against it completes, and says the mirror holds another service's data until it is cleared.
 */
import { createEoClient, originOf } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../shared/contract';
import {
  startBackend,
  startService,
  syncToEnd,
  type TestBackend,
  type TestService,
} from './harness';
import { indexInput } from './create-inputs';

let first: TestService;
let second: TestService;
beforeAll(async () => {
  first = await startService(20);
  second = await startService(20);
});
afterAll(async () => {
  await first?.close();
  await second?.close();
});

async function connectTo(t: TestBackend, s: TestService): Promise<void> {
  const online = t.waitFor(
    'connectivity.changed',
    (p) => (p as { state: string }).state === 'online',
    { what: `online at ${s.url}` },
  );
  await t.call('settings.update', { serviceUrl: s.url, apiKey: s.key });
  await online;
}

const syncAll = (t: TestBackend) => syncToEnd(t);

const completed = (s: SyncStatus) => s.resources.filter((r) => r.lastCompleteAt !== null);

describe('the mirror and the service it was synced from', () => {
  it("claims no sync of a new service, and names the other service's data until cleared", async () => {
    const t = startBackend();
    try {
      await connectTo(t, first);
      const synced = await syncAll(t);
      expect(completed(synced).length).toBe(synced.resources.length);
      expect(synced.otherServices ?? []).toEqual([]);

      // Another origin: the old service's sync is not this one's.
      await connectTo(t, second);
      const moved = await t.call('sync.status');
      expect(completed(moved)).toEqual([]);
      expect(moved.otherServices).toEqual([originOf(first.url)]);
      expect(moved.resources.find((r) => r.resource === 'catalogs')!.count).toBeGreaterThan(0);

      // A sync against the new service completes: its own times, the old data still there.
      const mixed = await syncAll(t);
      expect(completed(mixed).length).toBe(mixed.resources.length);
      expect(mixed.otherServices).toEqual([originOf(first.url)]);

      // Cleared: nothing of anyone; synced again: only the current service.
      await t.call('mirror.clear');
      const cleared = await t.call('sync.status');
      expect(cleared.otherServices ?? []).toEqual([]);
      expect(completed(cleared)).toEqual([]);
      const clean = await syncAll(t);
      expect(clean.otherServices ?? []).toEqual([]);
      expect(completed(clean).length).toBe(clean.resources.length);

      // Back to the first service: the second one's sync is not claimed for it.
      await connectTo(t, first);
      const back = await t.call('sync.status');
      expect(completed(back)).toEqual([]);
      expect(back.otherServices).toEqual([originOf(second.url)]);
    } finally {
      await t.close();
    }
  });
});

const entryNow = async (t: TestBackend, id: string) =>
  (await t.call('outbox.list', {})).entries.find((e) => e.id === id);

/** The indices a service holds, read from it directly. */
async function indexNames(s: TestService): Promise<string[]> {
  const r = await createEoClient({ baseUrl: s.url, apiKey: s.key }).listIndices({ limit: 100 });
  return r.indices.map((i) => i.name);
}

describe('creates queued for one service', () => {
  it('are held and marked after a switch, never sent to the other service; sent when theirs is back', async () => {
    const t = startBackend();
    try {
      await connectTo(t, first);
      const entry = await t.call('outbox.enqueue', {
        kind: 'index',
        input: indexInput('Red edge'),
      });
      expect(entry.queuedFor).toBeUndefined();

      await connectTo(t, second);
      const held = (await t.call('outbox.list', {})).entries.find((e) => e.id === entry.id);
      expect(held).toMatchObject({ state: 'queued', queuedFor: originOf(first.url) });
      // "Submit all" on the other service: nothing of the first one's goes.
      const result = await t.call('outbox.flush', {});
      expect(result).toMatchObject({ sent: 0, failed: 0 });
      expect(await entryNow(t, entry.id)).toMatchObject({ state: 'queued' });
      expect(await indexNames(second)).not.toContain('Red edge');

      // Its service again: no mark, and it is sent there.
      await connectTo(t, first);
      expect((await entryNow(t, entry.id))?.queuedFor).toBeUndefined();
      expect(await t.call('outbox.flush', {})).toMatchObject({ sent: 1 });
      expect(await indexNames(first)).toContain('Red edge');
    } finally {
      await t.close();
    }
  });
});
