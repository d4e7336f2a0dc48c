/**
 * The desktop's sync keeps quicklooks offline as the settings say: thumbnails by default, with
 * overviews by choice, none when off; the imagery pass reports progress and the Sync screen's
 * status counts what is stored. Against the real reference service on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connectivity, SyncStatus } from '../../shared/contract';
import {
  startBackend,
  startService,
  syncToEnd,
  type TestBackend,
  type TestService,
} from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(12);
});
afterAll(async () => {
  await service?.close();
});

async function connected(t: TestBackend): Promise<void> {
  const online = t.waitFor('connectivity.changed', (c) => (c as Connectivity).state === 'online', {
    what: 'the connection online',
  });
  await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
  await online;
}

const syncNow = (t: TestBackend) => syncToEnd(t, 'the sync finished');

const catalogCount = (s: SyncStatus) => s.resources.find((r) => r.resource === 'catalogs')!.count;

// Up to two whole syncs with pictures a test (SYNC_WAIT_MS each), under the project's 60 s.
describe('imagery in the desktop sync', { timeout: 120_000 }, () => {
  it('keeps thumbnails by default, counts them and reports the pass', async () => {
    const t = startBackend({ settings: null });
    try {
      const settings = await t.call('settings.get');
      expect(settings).toMatchObject({ imagery: 'thumbnails', imageryBudgetMb: 1024 });
      await connected(t);
      const status = await syncNow(t);
      const records = catalogCount(status);
      expect(records).toBeGreaterThan(0);
      expect(status.imagery).toMatchObject({ thumbnails: records, overviews: 0 });
      expect(status.imagery!.bytes).toBeGreaterThan(records * 1000);
      expect(status.imagery!.lastRun).toMatchObject({ fetched: records, failed: 0 });

      const passes = t.events.filter((e) => e.event === 'sync.imagery').map((e) => e.payload);
      expect(passes.at(-1)).toMatchObject({ seen: records, total: records });
      // The stored pictures count in the storage Settings shows.
      const after = await t.call('settings.get');
      expect(after.storageBytes).toBeGreaterThan(status.imagery!.bytes);

      // Overviews by choice: the next sync adds them and keeps the thumbnails.
      await t.call('settings.update', { imagery: 'overviews', imageryBudgetMb: 200 });
      expect(await t.call('settings.get')).toMatchObject({
        imagery: 'overviews',
        imageryBudgetMb: 200,
      });
      const second = await syncNow(t);
      expect(second.imagery).toMatchObject({ thumbnails: records, overviews: records });
      expect(second.imagery!.lastRun).toMatchObject({ fetched: records });
    } finally {
      await t.close();
    }
  });

  it('fetches no picture when imagery is off', async () => {
    const t = startBackend({ settings: null });
    try {
      await t.call('settings.update', { imagery: 'off' });
      await connected(t);
      const status = await syncNow(t);
      expect(catalogCount(status)).toBeGreaterThan(0);
      expect(status.imagery).toMatchObject({
        thumbnails: 0,
        overviews: 0,
        bytes: 0,
        lastRun: null,
      });
      expect(t.events.some((e) => e.event === 'sync.imagery')).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('refuses an unknown choice and a budget below 1 MB', async () => {
    const t = startBackend();
    try {
      for (const bad of [{ imagery: 'all' }, { imageryBudgetMb: 0 }, { imageryBudgetMb: 1.5 }]) {
        const r = await t.raw('settings.update', bad);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error.code).toBe('invalid_argument');
      }
      expect(await t.call('settings.get')).toMatchObject({ imagery: 'off', imageryBudgetMb: 1024 });
    } finally {
      await t.close();
    }
  });
});
