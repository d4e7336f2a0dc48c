/**
 * GeoTIFF georeferencing: the GeoKey directory (model type, raster type, EPSG code) and the
 * transform from ModelPixelScale + ModelTiepoint or ModelTransformation.
 */
import { fail } from '../errors';
import type { GeoTransform } from '../geo';
import { GeoKey, MODEL_GEOGRAPHIC, RASTER_PIXEL_IS_POINT, USER_DEFINED } from '../tiff/tags';

export interface GeoKeys {
  readonly modelType: number | null;
  readonly rasterType: number | null;
  /** EPSG code of the projected (or, for geographic models, geographic) CRS; null when user-defined. */
  readonly epsg: number | null;
  readonly citation: string | null;
}

/** Parses the GeoKeyDirectory's SHORT values; `ascii` is GeoAsciiParams. */
export function parseGeoKeys(dir: Float64Array, ascii: string): GeoKeys {
  if (dir.length < 4) fail('corrupt', 'the GeoKey directory is shorter than its header');
  const n = dir[3]!;
  if (dir.length < 4 + n * 4)
    fail('corrupt', `the GeoKey directory declares ${n} keys but holds fewer`);
  const keys = new Map<number, number | string>();
  for (let i = 0; i < n; i++) {
    const [id, location, count, value] = [
      dir[4 + i * 4]!,
      dir[5 + i * 4]!,
      dir[6 + i * 4]!,
      dir[7 + i * 4]!,
    ];
    if (location === 0) keys.set(id, value);
    else if (location === 34737) keys.set(id, ascii.slice(value, value + count).replace(/\|$/, ''));
  }
  const num = (k: number) => {
    const v = keys.get(k);
    return typeof v === 'number' ? v : null;
  };
  const modelType = num(GeoKey.GTModelType);
  const code =
    modelType === MODEL_GEOGRAPHIC
      ? num(GeoKey.GeographicType)
      : (num(GeoKey.ProjectedCSType) ?? null);
  const citation = keys.get(GeoKey.GTCitation) ?? keys.get(GeoKey.PCSCitation);
  return {
    modelType,
    rasterType: num(GeoKey.GTRasterType),
    epsg: code !== null && code !== USER_DEFINED && code > 0 ? code : null,
    citation: typeof citation === 'string' ? citation : null,
  };
}

/**
 * The geotransform, or null without georeferencing. PixelIsPoint rasters are shifted half a
 * pixel, as GDAL does, so both raster types give the pixel corners' coordinates.
 */
export function geoTransformOf(
  scale: Float64Array | null,
  tiepoint: Float64Array | null,
  matrix: Float64Array | null,
  rasterType: number | null,
): GeoTransform | null {
  let gt: [number, number, number, number, number, number] | null = null;
  if (matrix && matrix.length >= 16) {
    gt = [matrix[3]!, matrix[0]!, matrix[1]!, matrix[7]!, matrix[4]!, matrix[5]!];
  } else if (scale && scale.length >= 2 && tiepoint && tiepoint.length >= 6) {
    const [i, j, , x, y] = tiepoint;
    const sx = scale[0]!;
    const sy = scale[1]!;
    gt = [x! - i! * sx, sx, 0, y! + j! * sy, 0, -sy];
  }
  if (!gt || gt.some((v) => !Number.isFinite(v))) return null;
  if (rasterType === RASTER_PIXEL_IS_POINT) {
    gt[0] -= (gt[1] + gt[2]) / 2;
    gt[3] -= (gt[4] + gt[5]) / 2;
  }
  return gt;
}
