/**
 * Georeferencing: the affine transform from pixel to map coordinates, in GDAL's order
 * `[originX, pixelWidth, rowRotation, originY, columnRotation, pixelHeight]` (north-up rasters
 * have zero rotations and a negative pixel height), and the CRS as an EPSG code.
 */
import { fail } from './errors';

export type GeoTransform = readonly [number, number, number, number, number, number];

/** Map coordinates of pixel position (col, row) (pixel corners at integers). */
export function pixelToMap(gt: GeoTransform, col: number, row: number): [number, number] {
  return [gt[0] + col * gt[1] + row * gt[2], gt[3] + col * gt[4] + row * gt[5]];
}

/** Pixel position (col, row), fractional, of map coordinates (x, y). */
export function mapToPixel(gt: GeoTransform, x: number, y: number): [number, number] {
  const det = gt[1] * gt[5] - gt[2] * gt[4];
  if (det === 0) fail('corrupt', 'the geotransform cannot be inverted (zero determinant)');
  const dx = x - gt[0];
  const dy = y - gt[3];
  return [(dx * gt[5] - dy * gt[2]) / det, (dy * gt[1] - dx * gt[4]) / det];
}

/** The transform of an overview `width` x `height` of a level `baseWidth` x `baseHeight`. */
export function scaledTransform(
  gt: GeoTransform,
  baseWidth: number,
  baseHeight: number,
  width: number,
  height: number,
): GeoTransform {
  const sx = baseWidth / width;
  const sy = baseHeight / height;
  return [gt[0], gt[1] * sx, gt[2] * sy, gt[3], gt[4] * sx, gt[5] * sy];
}

/** The transform of a pixel window starting at (col, row) of a level. */
export function windowTransform(gt: GeoTransform, col: number, row: number): GeoTransform {
  const [x, y] = pixelToMap(gt, col, row);
  return [x, gt[1], gt[2], y, gt[4], gt[5]];
}

/** Map bounds [minX, minY, maxX, maxY] of a `width` x `height` raster. */
export function rasterBounds(
  gt: GeoTransform,
  width: number,
  height: number,
): [number, number, number, number] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [c, r] of [
    [0, 0],
    [width, 0],
    [0, height],
    [width, height],
  ] as const) {
    const [x, y] = pixelToMap(gt, c, r);
    xs.push(x);
    ys.push(y);
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** `proj:transform` (STAC, rasterio order `[a, b, c, d, e, f]`) as a GDAL geotransform. */
export function fromStacTransform(t: readonly number[]): GeoTransform {
  if (t.length < 6 || t.slice(0, 6).some((v) => !Number.isFinite(v)))
    fail('argument', 'proj:transform needs six finite numbers');
  return [t[2]!, t[0]!, t[1]!, t[5]!, t[3]!, t[4]!];
}
