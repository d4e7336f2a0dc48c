import { lonLatToMap, mapToLonLat, pixelToMap, type GeoTransform } from '@eo/geotiff';
import { describe, expect, it } from 'vitest';
import { mercX, mercY } from '../../../map/mercator';
import {
  levelForTile,
  MAX_ERROR_PX,
  pixelBox,
  pixelOfLonLat,
  tileToPixels,
  type RasterPlacement,
} from '../raster-grid';

// A 10 m window near Lausanne in UTM 32N, with two overviews.
const gt: GeoTransform = [320_000, 10, 0, 5_160_000, 0, -10];
const placement: RasterPlacement = {
  epsg: 32632,
  levels: [0, 1, 2].map((l) => ({
    width: 1024 >> l,
    height: 1024 >> l,
    geoTransform: [gt[0], 10 * 2 ** l, 0, gt[3], 0, -10 * 2 ** l] as GeoTransform,
  })),
};

const tileAt = (lon: number, lat: number, z: number) => ({
  z,
  x: Math.floor(mercX(lon) * 2 ** z),
  y: Math.floor(mercY(lat) * 2 ** z),
  size: 256,
});

describe('raster grid (Web Mercator tiles -> the raster UTM pixels)', () => {
  it('projects a pixel centre given in lon/lat back to that pixel centre', () => {
    const project = pixelOfLonLat(placement, 0);
    const out = new Float64Array(2);
    for (const [col, row] of [
      [0, 0],
      [511, 300],
      [1023, 1023],
    ] as const) {
      const [x, y] = pixelToMap(gt, col + 0.5, row + 0.5);
      const [lon, lat] = mapToLonLat(32632, x, y);
      project(lon, lat, out);
      expect(out[0]).toBeCloseTo(col + 0.5, 4);
      expect(out[1]).toBeCloseTo(row + 0.5, 4);
    }
  });

  it('interpolates every screen pixel of a tile within MAX_ERROR_PX of the exact projection', () => {
    const [lon, lat] = mapToLonLat(32632, 325_000, 5_155_000);
    for (const z of [12, 15, 18]) {
      const tile = tileAt(lon, lat, z);
      const level = levelForTile(placement, tile);
      const n = 256 * 256;
      const cols = new Float64Array(n);
      const rows = new Float64Array(n);
      tileToPixels(placement, level, tile, cols, rows);
      const project = pixelOfLonLat(placement, level);
      const p = new Float64Array(2);
      const worldPx = 256 * 2 ** z;
      let worst = 0;
      for (let v = 0; v < 256; v++)
        for (let u = 0; u < 256; u++) {
          const plon = ((tile.x * 256 + u + 0.5) / worldPx) * 360 - 180;
          const my = (tile.y * 256 + v + 0.5) / worldPx;
          const plat = (Math.atan(Math.exp((0.5 - my) * 2 * Math.PI)) * 360) / Math.PI - 90;
          project(plon, plat, p);
          const i = v * 256 + u;
          worst = Math.max(worst, Math.hypot(cols[i]! - p[0]!, rows[i]! - p[1]!));
        }
      expect(worst, `zoom ${z}`).toBeLessThanOrEqual(MAX_ERROR_PX + 1e-9);
    }
  });

  it('puts a ground point on the screen pixel Web Mercator puts it (correct to a pixel)', () => {
    // A known ground point: the centre of pixel (700, 250), in UTM then lon/lat.
    const [lon, lat] = mapToLonLat(32632, ...pixelToMap(gt, 700.5, 250.5));
    const z = 18;
    const tile = tileAt(lon, lat, z);
    const cols = new Float64Array(256 * 256);
    const rows = new Float64Array(256 * 256);
    tileToPixels(placement, 0, tile, cols, rows);
    const u = Math.floor(mercX(lon) * 256 * 2 ** z) - tile.x * 256;
    const v = Math.floor(mercY(lat) * 256 * 2 ** z) - tile.y * 256;
    expect(Math.floor(cols[v * 256 + u]!)).toBe(700);
    expect(Math.floor(rows[v * 256 + u]!)).toBe(250);
    // And the UTM round trip agrees with @eo/geotiff's projection.
    const [x, y] = lonLatToMap(32632, lon, lat);
    expect(x).toBeCloseTo(320_000 + 7005, 3);
    expect(y).toBeCloseTo(5_160_000 - 2505, 3);
  });

  it('chooses the coarsest level no coarser than the screen, full resolution zoomed in', () => {
    const [lon, lat] = mapToLonLat(32632, 325_000, 5_155_000);
    // At 46.5° N a zoom-14 screen pixel is ~6.6 m, zoom 12 ~26 m, zoom 13 ~13 m.
    expect(levelForTile(placement, tileAt(lon, lat, 18))).toBe(0);
    expect(levelForTile(placement, tileAt(lon, lat, 14))).toBe(0);
    expect(levelForTile(placement, tileAt(lon, lat, 12))).toBe(1);
    expect(levelForTile(placement, tileAt(lon, lat, 8))).toBe(2);
  });

  it('clamps the box of pixels a tile reads to the level, null when off the raster', () => {
    const cols = Float64Array.of(-5.5, 10.2, 3);
    const rows = Float64Array.of(2, 40.9, -1);
    expect(pixelBox(cols, rows, 3, { width: 8, height: 100 })).toEqual([0, 0, 8, 41]);
    expect(pixelBox(Float64Array.of(-3), Float64Array.of(2), 1, { width: 8, height: 8 })).toBe(
      null,
    );
  });
});
