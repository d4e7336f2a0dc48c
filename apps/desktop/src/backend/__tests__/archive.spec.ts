/**
 * Saved archive searches in the desktop: saved in the desktop store (checked once, in dispatch,
 * with the domain's schema), run by the sync, their scenes listed offline with thumbnails the
 * renderer's quicklook path serves; a removed search's scenes gone with the next sync. Against
 * the real reference service on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTo,
  errorOf,
  startBackend,
  startService,
  syncToEnd,
  type TestBackend,
  type TestService,
} from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(300);
});
afterAll(async () => {
  await service?.close();
});

const syncNow = (t: TestBackend) => syncToEnd(t, 'the sync finished');

const aurora = (satellite: string) => ({
  satellite: { collection_id: 'col-aurora-l2a', satellite_id: satellite },
  filters: [{ id: 'eo:cloud_cover', min: 0, max: 100 }],
});

// Up to two whole syncs with pictures a test (SYNC_WAIT_MS each), under the project's 60 s.
describe('saved archive searches', { timeout: 120_000 }, () => {
  it('saves, syncs, lists the scenes with thumbnails offline, and forgets a removed search', async () => {
    // Only the archive: no catalog records (their thumbnails would take the time).
    const t = startBackend({
      settings: {
        imagery: 'thumbnails',
        mirror: { orders: false, orderItems: false, aois: false, indices: false, catalog: 'none' },
      },
    });
    try {
      const bad = await errorOf(t, 'archive.save', {
        name: 'Too many',
        search: aurora('sat-aurora-1'),
        maxScenes: 5000,
      });
      expect(bad.code).toBe('invalid_argument');
      expect(JSON.stringify(bad)).toContain('maxScenes');

      const saved = await t.call('archive.save', {
        name: 'Aurora-1, any cloud',
        search: aurora('sat-aurora-1'),
        maxScenes: 4,
      });
      expect(saved).toMatchObject({ name: 'Aurora-1, any cloud', maxScenes: 4, pass: null });
      const other = await t.call('archive.save', {
        name: 'Aurora-2',
        search: aurora('sat-aurora-2'),
        maxScenes: 2,
      });
      // Saving again under the same id replaces it.
      const renamed = await t.call('archive.save', {
        id: saved.id,
        name: 'Aurora-1 latest',
        search: saved.search,
        maxScenes: saved.maxScenes,
      });
      expect(renamed.id).toBe(saved.id);
      expect((await t.call('archive.searches')).map((s) => s.name)).toEqual([
        'Aurora-1 latest',
        'Aurora-2',
      ]);

      await connectTo(t, service);
      const status = await syncNow(t);
      expect(status.imagery).toMatchObject({ thumbnails: 6 });
      // The Sync screen's archive line: what the saved searches keep.
      expect(status.archive).toEqual({
        searches: 2,
        scenes: 6,
        thumbnails: 6,
        overviews: 0,
        bytes: status.imagery!.bytes,
      });
      expect(status.archive!.bytes).toBeGreaterThan(0);
      const searches = await t.call('archive.searches');
      expect(searches.map((s) => s.pass)).toEqual([
        expect.objectContaining({ state: 'complete', scenes: 4, error: null }),
        expect.objectContaining({ state: 'complete', scenes: 2, error: null }),
      ]);

      const scenes = await t.call('archive.scenes', { searchId: saved.id });
      expect(scenes).toHaveLength(4);
      expect(scenes.map((s) => s.rank)).toEqual([0, 1, 2, 3]);
      for (const s of scenes) {
        expect(s).toMatchObject({ satelliteId: 'sat-aurora-1', thumbnail: true });
        expect(s.datetime).toMatch(/^\d{4}-\d\d-\d\dT/);
        // The map's outline: the scene's ring, spanning its bbox (Float64: exact corners).
        const ring = s.footprint!;
        expect(ring.length).toBeGreaterThanOrEqual(6);
        const lons = ring.filter((_, i) => i % 2 === 0);
        const lats = ring.filter((_, i) => i % 2 === 1);
        expect([
          Math.min(...lons),
          Math.min(...lats),
          Math.max(...lons),
          Math.max(...lats),
        ]).toEqual(s.bbox);
        // The renderer's quicklook path serves the stored picture.
        expect(t.backend.quicklook({ recordId: s.id, variant: 'thumbnail' }).status).toBe(200);
      }
      // Newest first, as the service ordered them.
      const times = scenes.map((s) => Date.parse(s.datetime!));
      expect([...times].sort((a, b) => b - a)).toEqual(times);

      expect(await t.call('archive.remove', { id: other.id })).toEqual({ removed: true });
      expect(await t.call('archive.remove', { id: other.id })).toEqual({ removed: false });
      const gone = (await t.call('archive.scenes', { searchId: other.id })).map((s) => s.id);
      expect(gone).toHaveLength(2); // kept until the next sync says otherwise
      await syncNow(t);
      expect(await t.call('archive.scenes', { searchId: other.id })).toEqual([]);
      expect((await t.call('sync.status')).archive).toMatchObject({
        searches: 1,
        scenes: 4,
        thumbnails: 4,
      });
      for (const id of gone)
        expect(t.backend.quicklook({ recordId: id, variant: 'thumbnail' }).status).toBe(404);
      expect(await t.call('archive.scenes', { searchId: saved.id })).toHaveLength(4);

      // Edited (the Archive screen saves it under its id): the next sync replaces its list.
      const before = (await t.call('archive.scenes', { searchId: saved.id })).map((s) => s.id);
      await t.call('archive.save', {
        id: saved.id,
        name: 'Aurora-1 latest',
        search: aurora('sat-aurora-1'),
        maxScenes: 2,
      });
      await syncNow(t);
      const after = (await t.call('archive.scenes', { searchId: saved.id })).map((s) => s.id);
      expect(after).toEqual(before.slice(0, 2));
    } finally {
      await t.close();
    }
  });
});
