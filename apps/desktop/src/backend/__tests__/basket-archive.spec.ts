/**
 * Archive scenes in the basket (issue 26): a scene a saved archive search keeps goes in as an
 * archive entry with its scene id, satellite, date and outline (kept in the desktop store, so
 * it outlives a restart and its search), a scene the search does not keep is refused, and a
 * queued order of it takes it out like a catalog record. Against the real reference service
 * and real SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveSceneRow } from '../../shared/contract';
import { archiveOrder } from './create-inputs';
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
  service = await startService(60);
});
afterAll(async () => {
  await service?.close();
});

/** A small box in the middle of a scene's bbox (an archive item's area must touch it). */
function inside(scene: ArchiveSceneRow): [number, number, number, number] {
  const [w, s, e, n] = scene.bbox!;
  const [cx, cy, dx, dy] = [(w + e) / 2, (s + n) / 2, (e - w) / 40, (n - s) / 40];
  return [cx - dx, cy - dy, cx + dx, cy + dy];
}

describe('archive scenes in the basket', () => {
  let t: TestBackend;
  afterAll(async () => {
    await t?.close();
  });

  it('keeps an archive scene with its satellite, date and outline, across a restart', async () => {
    const first = startBackend({
      settings: {
        mirror: { orders: false, orderItems: false, aois: false, indices: false, catalog: 'none' },
      },
    });
    const search = await first.call('archive.save', {
      name: 'Aurora-1',
      search: {
        satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
        filters: [{ id: 'eo:cloud_cover', min: 0, max: 100 }],
      },
      maxScenes: 3,
    });
    await syncToEnd(await connectTo(first, service));
    const scenes = await first.call('archive.scenes', { searchId: search.id });
    expect(scenes.length).toBeGreaterThanOrEqual(2);
    const [a, b] = scenes;

    const refused = await errorOf(first, 'basket.addArchive', {
      searchId: search.id,
      sceneIds: [a!.id, 'not-kept-by-it'],
    });
    expect(refused.code).toBe('invalid_argument');
    expect(refused.message).toContain('not-kept-by-it');
    expect((await first.call('basket.list')).entries).toEqual([]);

    await first.call('basket.add', { ids: ['a-catalog-record'] });
    const added = await first.call('basket.addArchive', {
      searchId: search.id,
      sceneIds: [a!.id, b!.id, a!.id],
    });
    expect(added.entries.map((e) => e.id)).toEqual(['a-catalog-record', a!.id, b!.id]);
    expect(added.entries[0]!.archive).toBeUndefined();
    expect(added.entries[1]).toMatchObject({
      id: a!.id,
      sceneId: a!.id,
      collection: 'col-aurora-l2a',
      datetime: a!.datetime,
      inMirror: true,
      archive: { footprint: a!.footprint },
    });
    expect(added.entries[1]!.platform).toMatch(/aurora-1/);
    await first.backend.close();

    // Restarted, and the search removed: the entries still say what they are.
    t = startBackend({ dataDir: first.dataDir });
    await t.call('archive.remove', { id: search.id });
    expect((await t.call('basket.list')).entries).toEqual(added.entries);

    // An order of one of them takes it out, as a catalog record's would be.
    const changed = t.waitFor('basket.changed');
    await t.call('outbox.enqueue', {
      kind: 'order',
      input: archiveOrder('Archive basket order', a!.id, inside(a!)),
    });
    expect(await changed).toMatchObject({ consumed: [a!.id], by: 'order' });
    expect((await t.call('basket.list')).entries.map((e) => e.id)).toEqual([
      'a-catalog-record',
      b!.id,
    ]);
  });
});
