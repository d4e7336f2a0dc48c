/**
 * Where a map tile's pixels fall in a stored raster: the map is Web Mercator (Leaflet's
 * EPSG:3857), the raster is on its scene's UTM grid, so every screen pixel is projected back
 * (Mercator -> lon/lat -> UTM -> the raster level's pixel). Exactly per pixel that is ~65,000
 * transverse Mercator projections per 256-px tile; instead the exact projection is taken at the
 * corners of 16 x 16-pixel blocks and interpolated inside (bilinear), and each block's centre
 * is checked against the exact projection: a block whose interpolation strays more than
 * `MAX_ERROR_PX` of a raster pixel is projected exactly, pixel by pixel. Sampling is nearest:
 * the raster pixel that contains the point (GDAL's rule), so zoomed in past the native
 * resolution the pixels show sharp.
 */
import { toUtm, utmOfEpsg } from '@eo/domain';
import { unmercY } from '../../map/mercator';

/** A raster level's size and pixel-to-CRS transform (GDAL order). */
export interface GridLevel {
  readonly width: number;
  readonly height: number;
  readonly geoTransform: readonly [number, number, number, number, number, number];
}

/** A stored raster's CRS and levels (full resolution first, then overviews). */
export interface RasterPlacement {
  readonly epsg: number;
  readonly levels: readonly GridLevel[];
}

/** A Web Mercator tile: zoom, column, row, size in pixels (Leaflet's scheme). */
export interface MapTile {
  readonly z: number;
  readonly x: number;
  readonly y: number;
  readonly size: number;
}

/** Interpolation blocks, screen pixels. */
export const BLOCK_PX = 16;
/** Largest distance, in raster pixels, between an interpolated and the exact position. */
export const MAX_ERROR_PX = 0.1;

/** Earth's equatorial circumference: metres per Web Mercator world width at the equator. */
const WORLD_M = 2 * Math.PI * 6378137;

/** The projection from (lon, lat) to a level's pixel coordinates (fractional; corners at integers). */
export function pixelOfLonLat(
  placement: RasterPlacement,
  level: number,
): (lon: number, lat: number, out: Float64Array) => void {
  const zone = utmOfEpsg(placement.epsg);
  const gt = placement.levels[level]!.geoTransform;
  const det = gt[1] * gt[5] - gt[2] * gt[4];
  return (lon, lat, out) => {
    const [x, y] = zone ? toUtm(lon, lat, zone.zone, zone.south) : [lon, lat];
    const dx = x - gt[0];
    const dy = y - gt[3];
    out[0] = (dx * gt[5] - dy * gt[2]) / det;
    out[1] = (dy * gt[1] - dx * gt[4]) / det;
  };
}

/**
 * The level to draw a tile from: the coarsest whose pixels are no larger than the screen's
 * (so the picture is as sharp as the screen), full resolution when zoomed in past it.
 */
export function levelForTile(placement: RasterPlacement, tile: MapTile): number {
  const n = 2 ** tile.z;
  const lat = unmercY((tile.y + 0.5) / n);
  const screenM = (WORLD_M * Math.cos((lat * Math.PI) / 180)) / (tile.size * n);
  let best = 0;
  placement.levels.forEach((l, i) => {
    if (Math.abs(l.geoTransform[1]) <= screenM * 1.0001) best = i;
  });
  return best;
}

/**
 * Fills `cols[i]`, `rows[i]` (i = row-major screen pixel of the tile) with the level's pixel
 * coordinates of each screen pixel's centre. Returns how many blocks were projected exactly.
 */
export function tileToPixels(
  placement: RasterPlacement,
  level: number,
  tile: MapTile,
  cols: Float64Array,
  rows: Float64Array,
): number {
  const { size } = tile;
  const project = pixelOfLonLat(placement, level);
  const worldPx = size * 2 ** tile.z;
  const x0 = tile.x * size;
  const y0 = tile.y * size;
  const p = new Float64Array(2);
  /** Exact pixel coordinates of screen position (u, v) in the tile. */
  const exact = (u: number, v: number) => {
    const lon = ((x0 + u) / worldPx) * 360 - 180;
    const lat = unmercY((y0 + v) / worldPx);
    project(lon, lat, p);
  };
  const blocks = Math.ceil(size / BLOCK_PX);
  const side = blocks + 1;
  // Exact positions at the block corners (screen positions k * BLOCK_PX, clamped to the tile).
  const cc = new Float64Array(side * side);
  const cr = new Float64Array(side * side);
  for (let j = 0; j < side; j++)
    for (let i = 0; i < side; i++) {
      exact(Math.min(size, i * BLOCK_PX), Math.min(size, j * BLOCK_PX));
      cc[j * side + i] = p[0]!;
      cr[j * side + i] = p[1]!;
    }
  let exactBlocks = 0;
  for (let bj = 0; bj < blocks; bj++)
    for (let bi = 0; bi < blocks; bi++) {
      const u0 = bi * BLOCK_PX;
      const v0 = bj * BLOCK_PX;
      const w = Math.min(size, u0 + BLOCK_PX) - u0;
      const h = Math.min(size, v0 + BLOCK_PX) - v0;
      const k = bj * side + bi;
      const [c00, c10, c01, c11] = [cc[k]!, cc[k + 1]!, cc[k + side]!, cc[k + side + 1]!];
      const [r00, r10, r01, r11] = [cr[k]!, cr[k + 1]!, cr[k + side]!, cr[k + side + 1]!];
      // The interpolation's worst place is about the middle: check it there.
      exact(u0 + w / 2, v0 + h / 2);
      const mc = (c00 + c10 + c01 + c11) / 4;
      const mr = (r00 + r10 + r01 + r11) / 4;
      const good = Math.hypot(mc - p[0]!, mr - p[1]!) <= MAX_ERROR_PX;
      if (!good) exactBlocks++;
      for (let y = 0; y < h; y++) {
        const fy = (y + 0.5) / h;
        const at = (v0 + y) * size + u0;
        for (let x = 0; x < w; x++) {
          if (good) {
            const fx = (x + 0.5) / w;
            const top = c00 + (c10 - c00) * fx;
            const bottom = c01 + (c11 - c01) * fx;
            cols[at + x] = top + (bottom - top) * fy;
            const topR = r00 + (r10 - r00) * fx;
            const bottomR = r01 + (r11 - r01) * fx;
            rows[at + x] = topR + (bottomR - topR) * fy;
          } else {
            exact(u0 + x + 0.5, v0 + y + 0.5);
            cols[at + x] = p[0]!;
            rows[at + x] = p[1]!;
          }
        }
      }
    }
  return exactBlocks;
}

/** The box of level pixels a tile reads: [col0, row0, col1, row1) clamped to the level, or null. */
export function pixelBox(
  cols: Float64Array,
  rows: Float64Array,
  n: number,
  level: Pick<GridLevel, 'width' | 'height'>,
): [number, number, number, number] | null {
  let [c0, r0, c1, r1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    const c = cols[i]!;
    const r = rows[i]!;
    if (c < c0) c0 = c;
    if (c > c1) c1 = c;
    if (r < r0) r0 = r;
    if (r > r1) r1 = r;
  }
  const box: [number, number, number, number] = [
    Math.max(0, Math.floor(c0)),
    Math.max(0, Math.floor(r0)),
    Math.min(level.width, Math.floor(c1) + 1),
    Math.min(level.height, Math.floor(r1) + 1),
  ];
  return box[0] < box[2] && box[1] < box[3] ? box : null;
}
