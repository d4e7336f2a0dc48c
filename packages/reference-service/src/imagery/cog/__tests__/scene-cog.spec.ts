/**
 * Scene COGs end to end: asked for by `ensure`, rendered on worker threads, served by the
 * signed route, and judged by GDAL reading them through HTTP (/vsicurl: range requests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdalInfo, gdalLocationValues, validateCog } from '@eo/geotiff/testing';
import { createTestApp, DEMO, type TestApp } from '../../../testing/harness';
import { satelliteById } from '../../../reference/catalog';
import { insertSquareScene } from '../../../testing/scenes';

let t: TestApp;
let base: string;
const SCENE = {
  id: 'TEST_AUR1_A',
  lon: 10.4,
  lat: 52.3,
  km: 3,
  datetime: '2024-06-20T10:30:00Z',
  cloudCover: 20,
};
const feature = () => insertSquareScene(t.app.ctx.sqlite, SCENE);
let f: ReturnType<typeof feature>;

beforeAll(async () => {
  t = await createTestApp({ scenes: 20 });
  f = feature();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t.close());

async function ready(ref: { source: 'archive' | 'catalog'; id: string }) {
  const first = t.app.ctx.imagery.cogs.ensure(DEMO.orgId, ref);
  await t.app.ctx.imagery.cogs.settled();
  const state = t.app.ctx.imagery.cogs.ensure(DEMO.orgId, ref);
  if (state.status !== 'ready') throw new Error(`not ready: ${JSON.stringify(state)}`);
  return { first, state };
}

describe('scene COGs', () => {
  it('renders a scene on a worker thread; GDAL reads it through the signed route as a valid COG on its grid', async () => {
    const { first, state } = await ready({ source: 'archive', id: SCENE.id });
    expect(first).toMatchObject({ status: 'rendering', tilesDone: 0 });
    expect(state.url).toMatch(
      new RegExp(
        `^/rasters/archive/TEST_AUR1_A/scene\\.tif\\?expires=\\d+&org=${DEMO.orgId}&signature=[\\w-]+$`,
      ),
    );
    expect([...t.app.ctx.imagery.cogs.threadIds].every((id) => id > 0)).toBe(true);
    expect(t.app.ctx.imagery.cogs.threadIds.size).toBeGreaterThan(0);

    const url = `/vsicurl/${base}${state.url}`;
    expect((await validateCog(url)).output).toContain('is a valid cloud optimized GeoTIFF');
    const info = await gdalInfo(url);
    const p = f.properties as Record<string, number[]>;
    expect(info.size).toEqual([p['proj:shape']![1], p['proj:shape']![0]]);
    const tr = p['proj:transform']!;
    expect(info.geoTransform).toEqual([tr[2], tr[0], tr[1], tr[5], tr[3], tr[4]]);
    expect(info.stac?.['proj:epsg']).toBe(32632);
    const bands = satelliteById('sat-aurora-1')!.bands;
    expect(info.bands.map((b) => b.description)).toEqual(bands.map((b) => b.name));
    expect(
      info.bands.every((b) => b.type === 'UInt16' && b.noDataValue === 0 && b.scale === 0.0001),
    ).toBe(true);
    expect(info.bands[0]!.overviews?.length).toBeGreaterThan(0);
    expect(info.metadata['']).toMatchObject({
      SCENE_ID: SCENE.id,
      DATETIME: SCENE.datetime,
      COLLECTION: 'col-aurora-l2a',
      SATELLITE: 'aurora-1',
      RESOLUTION_M: '3',
    });
    // Pixels in the footprint have values; the grid's corners (outside the rotated footprint) nodata.
    const [x0, y0] = [tr[2]!, tr[5]!];
    const w = p['proj:shape']![1]! * 3;
    const h = p['proj:shape']![0]! * 3;
    const [centre, corner] = await gdalLocationValues(url, [
      [x0 + w / 2, y0 - h / 2],
      [x0 + 5, y0 - 5],
    ]);
    expect(centre!.every((v) => v > 0)).toBe(true);
    expect(corner!.every((v) => v === 0)).toBe(true);
  });
});
