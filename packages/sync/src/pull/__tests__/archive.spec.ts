/**
 * The archive pass against the real reference service on 127.0.0.1: saved archive searches run
 * through POST /v0/search, their scenes kept with their thumbnails (fetched without the API key),
 * a changed result list replacing the kept one, a failed, aborted or cut-off search keeping
 * what it had, a scene two searches list stored once, a removed search's scenes and pictures
 * dropped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient, type BodyInput, type EoClient } from '@eo/api-client';
import type { SavedArchiveSearchInput } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { openMirrorDatabase } from '../../db/open';
import { openMirror, type Mirror } from '../../mirror/mirror';
import { imageryDir } from '../../mirror/imagery';
import { readPngHeader } from '../../mirror/png-header';
import { syncArchive } from '../archive';
import { startService, type TestService } from './service';

let service: TestService;
const tmp = tempDir('archive');
let mirrorCount = 0;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const client = (fetchImpl?: typeof fetch): EoClient =>
  createEoClient({
    baseUrl: service.url,
    apiKey: service.key,
    retry: { maxAttempts: 1 },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });

const freshMirror = (): Mirror => openMirror(path.join(tmp.dir, `mirror-${mirrorCount++}.db`));

const search = (
  id: string,
  satellite: 'sat-aurora-1' | 'sat-aurora-2',
  maxScenes: number,
): SavedArchiveSearchInput => ({
  id,
  name: `Search ${id}`,
  search: { satellite: { collection_id: 'col-aurora-l2a', satellite_id: satellite } },
  maxScenes,
});

/** The service's own answer, newest first: the ids a search should keep. */
async function serviceIds(s: SavedArchiveSearchInput): Promise<string[]> {
  const body = s.search as BodyInput<'searchSatelliteImages'>;
  const r = await client().searchSatelliteImages({ ...body, skip: 0, limit: s.maxScenes! });
  return ((r.items as { features: Array<{ id: string }> }).features ?? []).map((f) => f.id);
}

/** Quicklook requests seen by the imagery fetch, with whether any header went along. */
function recordingFetch() {
  const asked: Array<{ path: string; headers: boolean }> = [];
  const f: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    asked.push({ path: url.pathname, headers: init?.headers !== undefined });
    return fetch(input, init);
  };
  return { fetch: f, asked };
}

const imagery = (f?: typeof fetch) => ({
  serviceUrl: service.url,
  budgetBytes: 1024 ** 3,
  ...(f ? { fetch: f } : {}),
});

/** Deletes a scene from the service's archive (its results change). */
function deleteServiceScene(id: string): void {
  const sqlite = service.server.app.ctx.sqlite;
  sqlite.transaction(() => {
    sqlite
      .prepare(
        'DELETE FROM archive_scenes_rtree WHERE seq = (SELECT seq FROM archive_scenes WHERE id = ?)',
      )
      .run(id);
    sqlite.prepare('DELETE FROM archive_scenes WHERE id = ?').run(id);
  })();
}

describe('the archive pass', () => {
  it('keeps the scenes of a saved search in the service order, with their thumbnails, no key sent', async () => {
    const mirror = freshMirror();
    const saved = search('a1', 'sat-aurora-1', 5);
    const rec = recordingFetch();
    const report = await mirror.sync(client(), {
      resources: [],
      archive: [saved],
      imagery: imagery(rec.fetch),
    });
    expect(report.archive?.searches).toEqual([
      expect.objectContaining({ searchId: 'a1', state: 'complete', received: 5, drift: 0 }),
    ]);
    const scenes = mirror.archive.scenes('a1');
    expect(scenes.map((s) => s.id)).toEqual(await serviceIds(saved));
    expect(scenes.every((s) => s.thumbnail && !s.overview)).toBe(true);
    expect(scenes[0]).toMatchObject({
      rank: 0,
      satelliteId: 'sat-aurora-1',
      collectionId: 'col-aurora-l2a',
    });
    expect(scenes[0]!.bbox).toHaveLength(4);
    expect(typeof scenes[0]!.datetimeUs).toBe('number');
    expect(typeof scenes[0]!.cloudCover).toBe('number');
    for (const s of scenes)
      expect(readPngHeader(mirror.imagery.get(s.id, 'thumbnail')!)).toBeTruthy();
    expect(rec.asked).toHaveLength(5);
    expect(rec.asked.every((a) => !a.headers)).toBe(true);
    expect(report.imagery).toMatchObject({ wanted: 5, fetched: 5, failed: 0 });
    expect(mirror.archive.counts()).toMatchObject({ searches: 1, scenes: 5, thumbnails: 5 });
    expect(mirror.archive.counts().bytes).toBe(mirror.imagery.counts().bytes);
    expect(mirror.archive.searches()).toEqual([
      expect.objectContaining({ searchId: 'a1', state: 'complete', scenes: 5, lastError: null }),
    ]);

    // A second sync fetches no picture again.
    const again = await mirror.sync(client(), {
      resources: [],
      archive: [saved],
      imagery: imagery(),
    });
    expect(again.imagery).toMatchObject({ fetched: 0, kept: 5 });
    mirror.close();
  }, 60_000);

  it('a second sync after the service results changed replaces the list and drops the scene gone', async () => {
    const mirror = freshMirror();
    const saved = search('changing', 'sat-aurora-2', 3);
    await mirror.sync(client(), { resources: [], archive: [saved], imagery: imagery() });
    const before = mirror.archive.scenes('changing').map((s) => s.id);
    deleteServiceScene(before[0]!);
    const report = await mirror.sync(client(), {
      resources: [],
      archive: [saved],
      imagery: imagery(),
    });
    const after = mirror.archive.scenes('changing').map((s) => s.id);
    expect(after).toEqual(await serviceIds(saved));
    expect(after).not.toContain(before[0]);
    expect(after.slice(0, 2)).toEqual(before.slice(1));
    expect(report.archive).toMatchObject({ scenes: 3, dropped: 1 });
    expect(mirror.imagery.get(before[0]!, 'thumbnail')).toBeNull();
    expect(mirror.archive.counts()).toMatchObject({ scenes: 3, thumbnails: 3 });
    mirror.close();
  }, 60_000);

  it('a failed search keeps its previous list and the others still run; an abort keeps it too', async () => {
    const mirror = freshMirror();
    const a = search('keep-a', 'sat-aurora-1', 3);
    const b = search('keep-b', 'sat-aurora-2', 2);
    await mirror.sync(client(), { resources: [], archive: [a, b] });
    const listA = mirror.archive.scenes('keep-a').map((s) => s.id);
    expect(listA).toHaveLength(3);

    // The service fails the first search (500), answers the second.
    let searches = 0;
    const failing: typeof fetch = (input, init) =>
      new URL(input instanceof Request ? input.url : input).pathname === '/v0/search' &&
      searches++ === 0
        ? Promise.resolve(new Response('{"error":"boom"}', { status: 500 }))
        : fetch(input, init);
    const report = await mirror.sync(client(failing), {
      resources: [],
      archive: [a, { ...b, maxScenes: 4 }],
    });
    expect(report.archive?.searches.map((s) => s.state)).toEqual(['failed', 'complete']);
    expect(mirror.archive.scenes('keep-a').map((s) => s.id)).toEqual(listA);
    expect(mirror.archive.scenes('keep-b')).toHaveLength(4);
    const failed = mirror.archive.searches().find((s) => s.searchId === 'keep-a')!;
    expect(failed).toMatchObject({ state: 'failed', scenes: 3 });
    expect(failed.lastError).toMatchObject({ status: 500 });

    // Aborted during the search: the sync rejects, the list stays as it was.
    const controller = new AbortController();
    await expect(
      mirror.sync(client(), {
        resources: [],
        archive: [{ ...a, maxScenes: 2 }],
        signal: controller.signal,
        onArchiveProgress: () => controller.abort(),
      }),
    ).rejects.toThrow();
    expect(mirror.archive.scenes('keep-a').map((s) => s.id)).toEqual(listA);
    mirror.close();
  }, 60_000);

  it('a search the pager cut off (a service repeating its page) adds what it got and removes nothing', async () => {
    const mirror = freshMirror();
    // A second connection to the file, running the pass alone (as the CLI does).
    const db = openMirrorDatabase(mirror.file);
    const saved = search('cut', 'sat-aurora-1', 6);
    await mirror.sync(client(), { resources: [], archive: [saved] });
    const full = mirror.archive.scenes('cut').map((s) => s.id);
    // A service that ignores skip: the second page repeats the first, the pager stops there.
    const ignoringSkip: typeof fetch = (input, init) => {
      if (typeof init?.body !== 'string') return fetch(input, init);
      const body = JSON.parse(init.body) as Record<string, unknown>;
      return fetch(input, { ...init, body: JSON.stringify({ ...body, skip: 0 }) });
    };
    const report = await syncArchive(db.sqlite, client(ignoringSkip), [saved], { pageSize: 2 });
    expect(report.searches[0]).toMatchObject({ state: 'incomplete', received: 2 });
    expect(mirror.archive.scenes('cut').map((s) => s.id)).toEqual(full);
    expect(mirror.archive.searches()[0]).toMatchObject({ state: 'incomplete', scenes: 6 });

    // The same search asking for another satellite: the kept list is of another search, so even
    // a cut-off pass replaces it (with what it got), and the old scenes go.
    const changed = search('cut', 'sat-aurora-2', 6);
    const other = await syncArchive(db.sqlite, client(ignoringSkip), [changed], { pageSize: 2 });
    db.close();
    expect(other.searches[0]).toMatchObject({ state: 'incomplete', received: 2 });
    const kept = mirror.archive.scenes('cut');
    expect(kept).toHaveLength(2);
    expect(kept.every((s) => s.satelliteId === 'sat-aurora-2')).toBe(true);
    expect(other.dropped).toBe(6);
    mirror.close();
  }, 60_000);

  it('a scene two searches list is stored once; removing a search drops its scenes and pictures', async () => {
    const mirror = freshMirror();
    const small = search('small', 'sat-aurora-1', 2);
    const large = search('large', 'sat-aurora-1', 4);
    const other = search('other', 'sat-aurora-2', 2);
    const report = await mirror.sync(client(), {
      resources: [],
      archive: [small, large, other],
      imagery: imagery(),
    });
    expect(mirror.archive.scenes('small').map((s) => s.id)).toEqual(
      mirror.archive
        .scenes('large')
        .map((s) => s.id)
        .slice(0, 2),
    );
    expect(report.archive?.scenes).toBe(6);
    expect(report.imagery).toMatchObject({ wanted: 6, fetched: 6 });
    expect(mirror.archive.counts()).toMatchObject({ searches: 3, scenes: 6, thumbnails: 6 });

    const otherIds = mirror.archive.scenes('other').map((s) => s.id);
    const filesBefore = fs.readdirSync(imageryDir(mirror.file)).length;
    // Without imagery this time: the dropped scenes' pictures go all the same.
    const after = await mirror.sync(client(), { resources: [], archive: [small, large] });
    expect(after.archive).toMatchObject({ scenes: 4, dropped: 2 });
    expect(mirror.archive.scenes('other')).toEqual([]);
    expect(mirror.archive.searches().map((s) => s.searchId)).toEqual(['large', 'small']);
    for (const id of otherIds) expect(mirror.imagery.get(id, 'thumbnail')).toBeNull();
    expect(fs.readdirSync(imageryDir(mirror.file))).toHaveLength(filesBefore - 2);
    expect(mirror.archive.counts()).toMatchObject({ searches: 2, scenes: 4, thumbnails: 4 });

    // No archive option: the kept scenes stay; an empty list drops them all.
    await mirror.sync(client(), { resources: [] });
    expect(mirror.archive.counts().scenes).toBe(4);
    await mirror.sync(client(), { resources: [], archive: [] });
    expect(mirror.archive.counts()).toMatchObject({ searches: 0, scenes: 0, thumbnails: 0 });
    mirror.close();
  }, 60_000);

  it('refuses a bad saved search before reading anything, naming it', async () => {
    const mirror = freshMirror();
    await expect(
      mirror.sync(client(), {
        resources: [],
        archive: [{ ...search('bad', 'sat-aurora-1', 2), maxScenes: 5000 }],
      }),
    ).rejects.toThrow(/archive\[0\]\.maxScenes/);
    mirror.close();
  });
});
