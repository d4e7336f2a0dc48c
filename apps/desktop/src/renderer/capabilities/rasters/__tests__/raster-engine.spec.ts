import { bufferSource } from '@eo/geotiff';
import { beforeAll, describe, expect, it } from 'vitest';
import { siteRasterBytes, type SiteRaster } from '../../../../shared/__tests__/site-raster';
import { mercX, mercY } from '../../../map/mercator';
import { RasterEngine } from '../raster-engine';
import { inflateBounded } from '../raster-source';
import type { IndexStyle, RasterStyle } from '../raster-style';

const NDVI: IndexStyle = {
  kind: 'index',
  expression: '(NIR - RED) / (NIR + RED)',
  bandMap: [3, 2],
  colormap: 'RdYlGn',
  range: [-1, 1],
};

let site: SiteRaster;
let engine: RasterEngine;

beforeAll(async () => {
  const made = await siteRasterBytes({ width: 1024, height: 1024 });
  site = made.site;
  engine = new RasterEngine();
  await engine.open('site', bufferSource(made.bytes));
});

/** The RGBA of the screen pixel over a raster pixel's centre, at zoom z, drawn with `style`. */
async function screenPixelOver(col: number, row: number, z: number, style: RasterStyle) {
  const [lon, lat] = site.lonLatOf(col, row);
  const wx = mercX(lon) * 256 * 2 ** z;
  const wy = mercY(lat) * 256 * 2 ** z;
  const tile = { z, x: Math.floor(wx / 256), y: Math.floor(wy / 256), size: 256 };
  const rgba = await engine.renderTile('site', tile, style);
  expect(rgba).not.toBe(null);
  const i = (Math.floor(wy) - tile.y * 256) * 256 + (Math.floor(wx) - tile.x * 256);
  return Array.from(rgba!.subarray(i * 4, i * 4 + 4));
}

describe('the raster engine (what the raster worker runs)', () => {
  it('opens the stored format: UTM placement, levels, the reflectance scale of each band', async () => {
    const info = await engine.open('site', bufferSource(new Uint8Array(0)));
    expect(info.placement.epsg).toBe(32632);
    expect(info.levels.map((l) => l.width)).toEqual([1024, 512]);
    expect(info.bandCount).toBe(4);
    expect(info.nodata).toBe(0);
    expect(info.scales[3]).toEqual({ scale: 0.0001, offset: 0 });
  });

  it('reads every band at a ground point, and the index there as the service computes it', async () => {
    for (const cover of ['vegetation', 'water', 'soil'] as const) {
      const [col, row] = site.places[cover];
      const [lon, lat] = site.lonLatOf(col, row);
      const reading = await engine.pixel('site', lon, lat, NDVI);
      expect(reading).toMatchObject({ col, row, raw: site.valuesAt(col, row) });
      const [, , red, nir] = site.valuesAt(col, row).map((v) => v * 0.0001 * 10_000);
      expect(reading!.index![0]).toBeCloseTo((nir! - red!) / (nir! + red!), 5);
    }
    const veg = await engine.pixel('site', ...site.lonLatOf(...site.places.vegetation), NDVI);
    const water = await engine.pixel('site', ...site.lonLatOf(...site.places.water), NDVI);
    expect(veg!.index![0]).toBeGreaterThan(0.7);
    expect(water!.index![0]).toBeLessThan(0);
    expect(await engine.pixel('site', 0, 0, null)).toBe(null);
  });

  it("computes each band's 2-98 % stretch from the window", async () => {
    const stats = await engine.bandStats('site');
    expect(stats).toHaveLength(4);
    // NIR: water ~200, soil ~2,600, vegetation ~4,500.
    expect(stats[3]!.low).toBeGreaterThanOrEqual(150);
    expect(stats[3]!.low).toBeLessThan(stats[3]!.high);
    expect(stats[3]!.high).toBeLessThanOrEqual(4_800);
    expect(stats[3]!.min).toBeLessThanOrEqual(stats[3]!.low);
    const ndvi = await engine.indexStats('site', NDVI);
    expect(ndvi!.low).toBeLessThan(0);
    expect(ndvi!.high).toBeGreaterThan(0.7);
  });

  it('paints true colour, false colour and NDVI on map tiles, in their place', async () => {
    const stats = await engine.bandStats('site');
    const s = (b: number) => [stats[b]!.low, stats[b]!.high] as [number, number];
    const falseColour: RasterStyle = {
      kind: 'bands',
      bands: [3, 2, 1],
      stretch: [s(3), s(2), s(1)],
    };
    const trueColour: RasterStyle = {
      kind: 'bands',
      bands: [2, 1, 0],
      stretch: [s(2), s(1), s(0)],
    };
    const [vc, vr] = site.places.vegetation;
    const [wc, wr] = site.places.water;
    // False colour: vegetation red, water dark.
    const vegFalse = await screenPixelOver(vc, vr, 17, falseColour);
    expect(vegFalse[0]).toBeGreaterThan(200);
    expect(vegFalse[0]! - vegFalse[1]!).toBeGreaterThan(100);
    expect(vegFalse[3]).toBe(255);
    const waterFalse = await screenPixelOver(wc, wr, 17, falseColour);
    expect(waterFalse[0]).toBeLessThan(30);
    // True colour: vegetation is not red.
    const vegTrue = await screenPixelOver(vc, vr, 17, trueColour);
    expect(vegTrue[0]).toBeLessThan(vegFalse[0]!);
    // NDVI through RdYlGn: vegetation green, water red.
    const vegNdvi = await screenPixelOver(vc, vr, 17, NDVI);
    const waterNdvi = await screenPixelOver(wc, wr, 17, NDVI);
    expect(vegNdvi[1]).toBeGreaterThan(vegNdvi[0]!);
    expect(waterNdvi[0]).toBeGreaterThan(waterNdvi[1]!);
    // From an overview when zoomed out: still in place.
    const far = await screenPixelOver(vc, vr, 12, falseColour);
    expect(far[0]).toBeGreaterThan(200);
  });

  it('answers no picture for a tile off the raster', async () => {
    const style: RasterStyle = {
      kind: 'bands',
      bands: [0, 1, 2],
      stretch: [
        [0, 1],
        [0, 1],
        [0, 1],
      ],
    };
    expect(await engine.renderTile('site', { z: 17, x: 1, y: 1, size: 256 }, style)).toBe(null);
  });
});

describe('inflating tiles in the worker', () => {
  const deflate = async (bytes: Uint8Array) =>
    new Uint8Array(
      await new Response(
        new Blob([bytes as Uint8Array<ArrayBuffer>])
          .stream()
          .pipeThrough(new CompressionStream('deflate')),
      ).arrayBuffer(),
    );

  it('inflates a zlib stream up to its announced size', async () => {
    const plain = Uint8Array.from({ length: 5000 }, (_, i) => i % 251);
    expect(await inflateBounded(await deflate(plain), 5000)).toEqual(plain);
  });

  it('refuses a deflate bomb past the tile size without inflating it all', async () => {
    const bomb = await deflate(new Uint8Array(16 * 1024 * 1024));
    await expect(inflateBounded(bomb, 512 * 512 * 8)).rejects.toMatchObject({ code: 'decode' });
    await expect(inflateBounded(Uint8Array.of(1, 2, 3, 4), 100)).rejects.toThrow();
  });
});
