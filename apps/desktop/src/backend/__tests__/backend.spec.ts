import { createEoClient } from '@eo/api-client';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFootprints, type SyncStatus } from '../../shared/contract';
import { startBackend, startService, type TestBackend, type TestService } from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.close();
});

async function connected(): Promise<TestBackend> {
  const t = startBackend();
  const online = t.waitFor(
    'connectivity.changed',
    (p) => (p as { state: string }).state === 'online',
  );
  await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
  await online;
  return t;
}

async function syncAll(t: TestBackend): Promise<SyncStatus> {
  const finished = t.waitFor('sync.finished');
  const started = await t.call('sync.run', {});
  expect(started.running).toBe(true);
  return (await finished) as SyncStatus;
}

describe('backend, unconfigured', () => {
  it('starts with defaults and says what is missing', async () => {
    const t = startBackend();
    try {
      const s = await t.call('settings.get');
      expect(s).toMatchObject({
        serviceUrl: null,
        apiKeySet: false,
        syncIntervalMinutes: 0,
        tileUrl: null,
        dialect: 'spec',
      });
      expect(s.mirror.catalog).toBe('all');
      expect((await t.call('connectivity.check')).state).toBe('unconfigured');
      const r = await t.raw('sync.run', {});
      expect(r).toMatchObject({ ok: false, error: { code: 'not_configured' } });
      expect(await t.call('app.info')).toEqual({
        version: '0.0.0-dev',
        mode: 'browser',
        embeddedServiceUrl: null,
      });
    } finally {
      await t.close();
    }
  });

  it('rejects bad arguments with field paths, before any handler runs', async () => {
    const t = startBackend();
    try {
      const bad = await t.raw('settings.update', {
        serviceUrl: 'ftp://x',
        syncIntervalMinutes: -1,
      });
      expect(bad.ok).toBe(false);
      if (bad.ok) return;
      expect(bad.error.code).toBe('invalid_argument');
      expect(bad.error.details?.issues?.map((i) => i.path).sort()).toEqual([
        'serviceUrl',
        'syncIntervalMinutes',
      ]);
      // Nothing was stored.
      expect((await t.call('settings.get')).serviceUrl).toBeNull();
      expect(await t.raw('catalog.search', { bbox: [0, 0, 1] })).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument', details: { issues: [{ path: 'bbox' }] } },
      });
      expect(await t.raw('nope.method', {})).toMatchObject({
        ok: false,
        error: { code: 'unknown_method' },
      });
      expect(await t.raw('savedSearches.remove', { id: 42 })).toMatchObject({
        ok: false,
        error: { details: { issues: [{ path: 'id' }] } },
      });
    } finally {
      await t.close();
    }
  });
});

describe('backend against the reference service', () => {
  it('connects, never returns the key, syncs with progress, and searches offline like the service', async () => {
    const t = await connected();
    try {
      const s = await t.call('settings.get');
      expect(s.apiKeySet).toBe(true);
      expect(JSON.stringify(s)).not.toContain(service.key);

      const status = await syncAll(t);
      expect(status.running).toBe(false);
      const catalogs = status.resources.find((r) => r.resource === 'catalogs')!;
      expect(catalogs.count).toBeGreaterThan(0);
      expect(catalogs.lastCompleteAt).not.toBeNull();
      expect(status.resources.every((r) => r.lastError === null)).toBe(true);
      const progress = t.events.filter((e) => e.event === 'sync.progress');
      expect(progress.length).toBeGreaterThan(0);
      expect(JSON.stringify(t.events)).not.toContain(service.key);

      const query = {
        bbox: [-180, -60, 180, 60] as [number, number, number, number],
        query: { 'eo:cloud_cover': { lt: 40 } },
        sort_by: [{ field: 'datetime', direction: 'desc' as const }],
        limit: 50,
      };
      const client = createEoClient({ baseUrl: service.url, apiKey: service.key });
      const online = await client.searchCatalogs(query);
      const offline = await t.call('catalog.search', query);
      expect(offline.items.map((r) => r.id)).toEqual(online.catalogs.map((c) => c.id));
      expect(offline.total).toBe(online.pagination.total);
      expect(offline.items[0]!.cloudCover).toBeLessThan(40);

      const fp = decodeFootprints(await t.call('catalog.footprints', query));
      expect(fp.ids.length).toBe(offline.total);
      expect(new Set(fp.ids)).toEqual(
        new Set((await t.call('catalog.search', { ...query, limit: 1000 })).items.map((r) => r.id)),
      );
      // Each a ring of 3 points at least (decoding checks it), in the search's area.
      expect(fp.coords.length).toBeGreaterThanOrEqual(fp.ids.length * 6);

      const one = await t.call('catalog.get', { id: offline.items[0]!.id });
      expect(one?.id).toBe(offline.items[0]!.id);
      expect(await t.call('catalog.get', { id: 'no-such-record' })).toBeNull();

      // The service goes away: search still answers, the indicator says offline.
      await service.server.app.close();
      const again = await t.call('catalog.search', query);
      expect(again.items.map((r) => r.id)).toEqual(offline.items.map((r) => r.id));
      expect((await t.call('connectivity.check')).state).toBe('offline');
    } finally {
      await t.close();
      // Later tests need a service again.
      await service.close();
      service = await startService();
    }
  });

  it('says unauthorized for a wrong key and records a sync error with a hint', async () => {
    const t = startBackend();
    try {
      await t.call('settings.update', { serviceUrl: service.url, apiKey: 'wrong-key' });
      expect((await t.call('connectivity.check')).state).toBe('unauthorized');
      const status = await syncAll(t);
      const failed = status.resources.find((r) => r.lastError !== null);
      expect(failed?.lastError?.hint).toMatch(/API key/);
    } finally {
      await t.close();
    }
  });

  it('cancels a running sync and refuses a second one', async () => {
    const t = await connected();
    try {
      const finished = t.waitFor('sync.finished');
      await t.call('sync.run', {});
      expect(await t.raw('sync.run', {})).toMatchObject({ ok: false, error: { code: 'busy' } });
      expect(await t.raw('mirror.clear', {})).toMatchObject({ ok: false, error: { code: 'busy' } });
      const after = await t.call('sync.cancel');
      expect(after.running).toBe(false);
      await finished;
    } finally {
      await t.close();
    }
  });

  it('mirrors only saved searches when asked, and clears the mirror', async () => {
    const t = await connected();
    try {
      const saved = await t.call('savedSearches.save', {
        name: 'Clear skies',
        query: { query: { 'eo:cloud_cover': { lt: 10 } } },
      });
      expect(saved.name).toBe('Clear skies');
      const renamed = await t.call('savedSearches.save', {
        id: saved.id,
        name: 'Very clear',
        query: { query: { 'eo:cloud_cover': { lt: 10 } } },
      });
      expect(renamed.id).toBe(saved.id);
      expect((await t.call('savedSearches.list')).map((s) => s.name)).toEqual(['Very clear']);

      await t.call('settings.update', { mirror: { catalog: 'saved-searches', orders: false } });
      const status = await syncAll(t);
      const count = status.resources.find((r) => r.resource === 'catalogs')!.count;
      expect(count).toBeGreaterThan(0);
      const all = await t.call('catalog.search', { limit: 1 });
      expect(all.total).toBe(count);
      const clear = await t.call('catalog.search', {
        query: { 'eo:cloud_cover': { lt: 10 } },
        limit: 1,
      });
      expect(clear.total).toBe(count);
      expect(status.resources.find((r) => r.resource === 'orders')!.lastCompleteAt).toBeNull();

      const before = decodeFootprints(await t.call('catalog.footprints', {}));
      expect(before.ids.length).toBe(count);
      expect(await t.call('mirror.clear')).toEqual({ cleared: true });
      expect(decodeFootprints(await t.call('catalog.footprints', {})).ids).toEqual([]);
      const cleared = await t.call('sync.status');
      expect(cleared.resources.every((r) => r.count === 0 && r.lastCompleteAt === null)).toBe(true);
      expect((await t.call('savedSearches.list')).length).toBe(1);
      expect(await t.call('savedSearches.remove', { id: saved.id })).toEqual({ removed: true });
      expect(await t.call('savedSearches.remove', { id: saved.id })).toEqual({ removed: false });
      expect((await t.call('settings.get')).storageBytes).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });

  it('keeps settings across restarts, the key in the secrets only', async () => {
    const first = startBackend();
    await first.call('settings.update', {
      serviceUrl: service.url,
      apiKey: service.key,
      syncIntervalMinutes: 15,
      tileUrl: 'http://127.0.0.1:1/{z}/{x}/{y}.png',
      dialect: 'provider-v0',
    });
    await first.backend.close();
    const files = fs.readdirSync(first.dataDir);
    for (const f of files) {
      expect(fs.readFileSync(path.join(first.dataDir, f)).includes(service.key)).toBe(false);
    }
    const second = startBackend({ dataDir: first.dataDir, secrets: first.secrets });
    try {
      expect(await second.call('settings.get')).toMatchObject({
        serviceUrl: service.url,
        apiKeySet: true,
        syncIntervalMinutes: 15,
        dialect: 'provider-v0',
      });
      const bad = await second.raw('settings.update', { dialect: 'v9' });
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
      await second.call('settings.update', { apiKey: null, serviceUrl: null });
      expect(await second.call('settings.get')).toMatchObject({
        serviceUrl: null,
        apiKeySet: false,
      });
      expect((await second.call('connectivity.check')).state).toBe('unconfigured');
    } finally {
      await second.close();
    }
  });
});
