/**
 * The scene COG cache: the same bytes for the same scene in two services, a byte budget that
 * evicts the least recently used (rendered again, identical, when asked for), scenes another
 * organisation cannot see, and the bands of a catalog record's bandset.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, OTHER, type TestApp } from '../../../testing/harness';
import { bandsetById } from '../../../reference/catalog';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../../http/errors';
import { satelliteById } from '../../../reference/catalog';
import { renderSceneTiles } from '../job';
import { makeSceneLookup } from '../lookup';
import { sceneRasterOf } from '../scene';
import { SceneCogs, type SceneRef } from '../scene-cogs';
import { insertSquareScene, squareSceneFeature, type SquareScene } from '../../../testing/scenes';

const scene = (id: string, lon: number): SquareScene => ({
  id,
  lon,
  lat: 51.1,
  km: 1.5,
  datetime: '2024-07-02T10:00:00Z',
  cloudCover: 30,
});
const A = scene('TEST_CACHE_A', 9.1);
const B = scene('TEST_CACHE_B', 9.3);
const C = scene('TEST_CACHE_C', 9.5);
const ref = (s: SquareScene): SceneRef => ({ source: 'archive', id: s.id });

let t: TestApp;
let u: TestApp;
beforeAll(async () => {
  // A budget of one byte: every new COG pushes out all others (the newest always stays).
  t = await createTestApp({ scenes: 5, rasterCacheBytes: 1 });
  u = await createTestApp({ scenes: 5 });
  for (const s of [A, B, C]) insertSquareScene(t.app.ctx.sqlite, s);
  insertSquareScene(u.app.ctx.sqlite, A);
});
afterAll(async () => {
  await t.close();
  await u.close();
});

async function render(app: TestApp, s: SquareScene) {
  const cogs = app.app.ctx.imagery.cogs;
  cogs.ensure(DEMO.orgId, ref(s));
  await cogs.settled();
  const found = cogs.serve(ref(s), '');
  if (!found || !('file' in found)) throw new Error(`${s.id} is not on disk`);
  return {
    ...found.file,
    sha: createHash('sha256').update(fs.readFileSync(found.file.path)).digest('hex'),
  };
}

describe('the scene COG cache', () => {
  it('makes the same bytes for the same scene in two services (deterministic from the scene)', async () => {
    const one = await render(t, A);
    const two = await render(u, A);
    expect(two.sha).toBe(one.sha);
    expect(two.etag).toBe(one.etag);
  });

  it('keeps the budget: the least recently used COG goes, and comes back identical when asked for', async () => {
    const cogs = t.app.ctx.imagery.cogs;
    const a = await render(t, A);
    const b = await render(t, B);
    expect(fs.existsSync(a.path)).toBe(false);
    expect(cogs.bytes).toBe(b.bytes);
    await render(t, C);
    expect(fs.existsSync(b.path)).toBe(false);
    // A is gone: asking starts its render again (the route says 503 meanwhile), same bytes.
    expect(cogs.ensure(DEMO.orgId, ref(A))).toMatchObject({ status: 'rendering' });
    const again = await render(t, A);
    expect(again.sha).toBe(a.sha);
  });

  it('says not-found for what the organisation cannot see, and renders a catalog record with its bandset', async () => {
    const cogs = t.app.ctx.imagery.cogs;
    expect(cogs.ensure(DEMO.orgId, { source: 'archive', id: 'NO_SUCH_SCENE' })).toEqual({
      status: 'not-found',
    });
    const row = t.app.ctx.sqlite
      .prepare<[string], { id: string; record_json: string }>(
        'SELECT id, record_json FROM catalog_records WHERE org_id = ? LIMIT 1',
      )
      .get(DEMO.orgId)!;
    expect(cogs.ensure(OTHER.orgId, { source: 'catalog', id: row.id })).toEqual({
      status: 'not-found',
    });
    const lookup = makeSceneLookup(t.app.ctx);
    const raster = lookup({ source: 'catalog', id: row.id }, DEMO.orgId)!;
    const bandset = (JSON.parse(row.record_json) as { bandset_id: string }).bandset_id;
    expect(raster.bands.map((b) => b.name)).toEqual(bandsetById(bandset)!.bands);
    expect(raster.width * raster.height).toBeGreaterThan(1e6);
    expect(lookup({ source: 'catalog', id: row.id }, OTHER.orgId)).toBeNull();
  });

  it('asks a batch again after a 503 of the pool (it ran past its time), then completes', async () => {
    const scene = sceneRasterOf(
      squareSceneFeature({ ...A, km: 0.6 }),
      satelliteById('sat-aurora-1')!,
      null,
    )!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-cogs-busy-'));
    let refusals = 0;
    const cogs = new SceneCogs({
      dir,
      budgetBytes: 1 << 30,
      // The first two tries of the batch end in 503s; then the work is done (here, in-process).
      run: async (_owner, job) => {
        if (refusals < 2) {
          refusals++;
          throw ApiError.busy('the render pool is full', 1);
        }
        return renderSceneTiles(job);
      },
      inFlight: 1,
      sign: (p) => p,
      lookup: () => scene,
      log: () => undefined,
      now: () => Date.now(),
    });
    try {
      expect(cogs.ensure(DEMO.orgId, ref(A))).toMatchObject({ status: 'rendering' });
      await cogs.settled();
      expect(refusals).toBe(2);
      expect(cogs.ensure(DEMO.orgId, ref(A))).toMatchObject({ status: 'ready' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
