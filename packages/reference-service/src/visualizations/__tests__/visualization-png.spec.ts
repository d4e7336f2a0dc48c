import { colormapRgb, VISUALIZATION_PNG_HEADERS as H } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAoi, insertFixtureScenes, listAssets } from '../../aois/__tests__/fixtures';
import { decodePng } from '../../imagery/__tests__/png-decode';
import { INDEX_PNG_PIXELS } from '../../imagery/index-png';
import { createTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
let aoiId: string;
let visId: string;
let date: string;
// A triangle: half of its bbox lies outside it, so transparency is visible.
const TRIANGLE = {
  type: 'Polygon',
  coordinates: [
    [
      [10, 45],
      [10.1, 45],
      [10, 45.1],
      [10, 45],
    ],
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  insertFixtureScenes(t);
  const aoi = await createAoi(t, { geometry: TRIANGLE });
  aoiId = aoi.aoi_id;
  t.app.ctx.worker.drain();
  const cover = (await listAssets(t, aoiId)).find((a) => a.status === 'success');
  date = cover.date;
  const res = await t.call({
    method: 'POST',
    url: `/v0/aois/${aoiId}/visualizations`,
    payload: { index_id: 'idx-ndvi-aurora', src_asset_ids: [cover.id] },
  });
  expect(res.statusCode, res.body).toBe(201);
  visId = res.json().id;
  t.app.ctx.worker.drain();
});
afterAll(async () => t.close());

const png = (body: object, opts: { key?: string | null; headers?: Record<string, string> } = {}) =>
  t.call({
    method: 'POST',
    url: `/v0/aois/${aoiId}/visualizations/${visId}/png`,
    payload: body,
    ...opts,
  });

/** Distance of a colour to the nearest point of a colormap's ramp. */
function offRamp(name: string, rgb: readonly number[]): number {
  let best = Infinity;
  for (let i = 0; i <= 512; i++) {
    const c = colormapRgb(name, i / 512);
    best = Math.min(best, Math.hypot(c[0] - rgb[0]!, c[1] - rgb[1]!, c[2] - rgb[2]!));
  }
  return best;
}

function opaqueColours(bytes: Buffer) {
  const img = decodePng(bytes);
  const out: number[][] = [];
  let transparent = 0;
  for (let i = 0; i < img.pixels.length; i += 4) {
    if (img.pixels[i + 3] === 0) transparent++;
    else out.push([img.pixels[i]!, img.pixels[i + 1]!, img.pixels[i + 2]!]);
  }
  return { img, out, transparent };
}

describe('POST /v0/aois/{aoi_id}/visualizations/{visualization_id}/png (from the real service)', () => {
  it('renders the index over the AOI with its colormap and rescale, with its bounds', async () => {
    const res = await png({
      index_id: 'idx-ndvi-aurora',
      date: date.replaceAll('-', '_'),
      visualization_mode: 'theoretical',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers[H.bounds]).toBe('10,45,10.1,45.1');
    expect(res.headers[H.rescale]).toBe('-1,1');
    expect(res.headers[H.colormap]).toBe('RdYlGn');
    const { img, out, transparent } = opaqueColours(res.rawPayload);
    expect(img.channels).toBe(4);
    expect(Math.max(img.width, img.height)).toBe(INDEX_PNG_PIXELS);
    // Outside the triangle (half the box) is transparent.
    const share = transparent / (img.width * img.height);
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
    // Every colour lies on the RdYlGn ramp, and the ramp is used (not one flat colour).
    expect(
      Math.max(...out.filter((_, i) => i % 97 === 0).map((c) => offRamp('RdYlGn', c))),
    ).toBeLessThan(3);
    expect(new Set(out.map((c) => c.join())).size).toBeGreaterThan(20);
  });

  it('uses another index’s colormap, and stretches to the values in dynamic mode', async () => {
    const res = await png({ index_id: 'idx-ndwi-aurora', date, visualization_mode: 'dynamic' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers[H.colormap]).toBe('Blues');
    const [lo, hi] = String(res.headers[H.rescale]).split(',').map(Number);
    expect(lo).toBeGreaterThanOrEqual(-1);
    expect(hi).toBeLessThanOrEqual(1);
    expect(hi! - lo!).toBeLessThan(2);
    const { out } = opaqueColours(res.rawPayload);
    expect(
      Math.max(...out.filter((_, i) => i % 97 === 0).map((c) => offRamp('Blues', c))),
    ).toBeLessThan(3);
    // A 2nd-98th percentile stretch puts at least ~2% of the pixels at each end of the ramp.
    const [low, high] = [0, 1].map((x) => colormapRgb('Blues', x).join());
    expect(out.filter((c) => c.join() === low).length / out.length).toBeGreaterThan(0.015);
    expect(out.filter((c) => c.join() === high).length / out.length).toBeGreaterThan(0.015);
  });

  it('is not compressed, needs the API key, and says what is wrong in our error shape', async () => {
    const body = { index_id: 'idx-ndvi-aurora', date, visualization_mode: 'theoretical' };
    const plain = await png(body, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((await png(body, { key: null })).statusCode).toBe(401);
    expect((await png(body, { key: t.otherKey })).statusCode).toBe(404);
    const wrongDate = await png({ ...body, date: '1999_01_01' });
    expect(wrongDate.statusCode).toBe(400);
    expect(wrongDate.json().error.details[0].path).toBe('date');
    const kestrel = await png({ ...body, index_id: 'idx-ndvi-kestrel' });
    expect(kestrel.statusCode).toBe(400);
    const mode = await png({ ...body, visualization_mode: 'fancy' });
    expect(mode.statusCode).toBe(400);
    expect(mode.json().error.details[0].path).toBe('visualization_mode');
  });
});
