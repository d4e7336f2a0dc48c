/**
 * The first run shows the catalog: a mirror that never completed a sync is synced as soon as
 * the connection is first online; a mirror synced before is left to the user and the timer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connectivity, SyncStatus } from '../../shared/contract';
import { startBackend, startService, type TestService } from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(50);
});
afterAll(async () => {
  await service?.close();
});

const online = (p: unknown) => (p as Connectivity).state === 'online';

describe('the first sync', () => {
  it('syncs on the first connection online when the mirror was never synced, and only then', async () => {
    const t = startBackend({ syncOnFirstConnect: true });
    try {
      const finished = t.waitFor('sync.finished', undefined, {
        what: 'a sync started by itself on first connect',
      });
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      const status = (await finished) as SyncStatus;
      const catalogs = status.resources.find((r) => r.resource === 'catalogs')!;
      expect(catalogs.count).toBeGreaterThan(0);
      expect(catalogs.lastCompleteAt).not.toBeNull();

      // A new connection (the key entered again) to a mirror synced before: no sync by itself.
      const again = t.waitFor('connectivity.changed', online, {
        what: 'the new connection online',
      });
      await t.call('settings.update', { apiKey: service.key });
      await again;
      expect((await t.call('sync.status')).running).toBe(false);
      expect(t.events.filter((e) => e.event === 'sync.finished')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
