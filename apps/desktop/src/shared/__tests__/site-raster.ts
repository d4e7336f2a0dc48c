/**
 * Offline rasters for the desktop's tests and benchmarks, on every side of the app: a site's
 * window in the stored raster format of @eo/geotiff (a tiled COG in the scene's UTM CRS, uint16
 * reflectance × 10,000, nodata 0, band names and common names, internal overviews, the scene's
 * items), written with @eo/geotiff as @eo/sync stores the windows it fetches. The backend's tests
 * write it to a file (backend/__tests__/site-window.ts), the renderer's read it from memory
 * (zlib by fflate: the renderer's type world has no Node).
 *
 * The ground is drawn so that what a field team checks can be checked: a lake (water: NIR below
 * red, NDVI < 0, NDWI > 0), a field of vegetation (NIR far above red, NDVI ~0.84) and bare soil
 * around them, with a little texture per pixel. Their places are given in pixels and in lon/lat.
 */
import {
  allocSamples,
  mapToLonLat,
  pixelToMap,
  REFLECTANCE,
  reflectanceBands,
  sceneItems,
  writeCog,
  type Compression,
  type GeoTransform,
  type PositionalSink,
  type TileRequest,
} from '@eo/geotiff';
import { zlibSync, inflateSync } from 'fflate';

export const SITE_BANDS = [
  { name: 'B02', commonName: 'blue', wavelengthNm: 490 },
  { name: 'B03', commonName: 'green', wavelengthNm: 560 },
  { name: 'B04', commonName: 'red', wavelengthNm: 665 },
  { name: 'B08', commonName: 'nir', wavelengthNm: 842 },
] as const;

/** Surface reflectance of each cover, in band order (B02, B03, B04, B08). */
export const COVERS = {
  water: [0.06, 0.07, 0.04, 0.02],
  vegetation: [0.03, 0.08, 0.04, 0.45],
  soil: [0.12, 0.16, 0.2, 0.26],
} as const;
export type Cover = keyof typeof COVERS;

export interface SiteWindowOptions {
  /** Pixels across and down (default 1024 x 1024). */
  readonly width?: number;
  readonly height?: number;
  /** EPSG of the UTM zone (default 32632: Lake Geneva's zone). */
  readonly epsg?: number;
  /** Top-left corner in the CRS (default near Lausanne), and the pixel size (default 10 m). */
  readonly origin?: readonly [number, number];
  readonly pixelSize?: number;
  readonly sceneId?: string;
  readonly datetime?: string;
  /** Pixels on a tile's side (default: the stored format's). */
  readonly tileSize?: number;
  /** Shifts the covers' texture (another date of the same site looks a little different). */
  readonly seed?: number;
}

export interface SiteRaster {
  readonly width: number;
  readonly height: number;
  readonly epsg: number;
  readonly geoTransform: GeoTransform;
  readonly sceneId: string;
  readonly datetime: string;
  /** The cover of a full-resolution pixel. */
  coverAt(col: number, row: number): Cover;
  /** The raw value (reflectance × 10,000) of a full-resolution pixel in each band. */
  valuesAt(col: number, row: number): number[];
  /** Lon/lat of a pixel's centre. */
  lonLatOf(col: number, row: number): [number, number];
  /** A pixel well inside each cover: the lake's centre, the field's centre, a soil corner. */
  readonly places: Readonly<Record<Cover, readonly [number, number]>>;
}

function hash(x: number, y: number, seed: number): number {
  let h =
    Math.imul(x + 1, 0x27d4eb2d) ^ Math.imul(y + 7, 0x165667b1) ^ Math.imul(seed + 3, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  return ((h ^ (h >>> 13)) >>> 0) / 0xffffffff;
}

/** Writes a site window (a COG in the stored format) to `sink`. */
export async function writeSiteRaster(
  sink: PositionalSink,
  options: SiteWindowOptions = {},
  compression: Compression,
): Promise<SiteRaster> {
  const width = options.width ?? 1024;
  const height = options.height ?? 1024;
  const epsg = options.epsg ?? 32632;
  const size = options.pixelSize ?? 10;
  const [ox, oy] = options.origin ?? [320_000, 5_160_000];
  const seed = options.seed ?? 0;
  const sceneId = options.sceneId ?? 'aurora-1-20240612-site';
  const datetime = options.datetime ?? '2024-06-12T10:31:05Z';
  const geoTransform: GeoTransform = [ox, size, 0, oy, 0, -size];
  const lake = { cx: 0.3 * width, cy: 0.6 * height, r: 0.15 * Math.min(width, height) };
  const field = { x0: 0.55 * width, x1: 0.85 * width, y0: 0.15 * height, y1: 0.45 * height };

  const coverAt = (col: number, row: number): Cover => {
    const [x, y] = [col + 0.5, row + 0.5];
    if ((x - lake.cx) ** 2 + (y - lake.cy) ** 2 < lake.r ** 2) return 'water';
    if (x >= field.x0 && x < field.x1 && y >= field.y0 && y < field.y1) return 'vegetation';
    return 'soil';
  };
  const valuesAt = (col: number, row: number): number[] => {
    const c = COVERS[coverAt(col, row)];
    const t = 0.94 + 0.12 * hash(col, row, seed);
    return c.map((r) => Math.max(1, Math.round((r * t) / REFLECTANCE.scale)));
  };

  const nb = SITE_BANDS.length;
  const tiles = (t: TileRequest) => {
    const s = t.tileSize;
    const out = allocSamples('uint16', s * s * nb);
    const step = 2 ** t.level;
    for (let y = 0; y < s; y++) {
      const ly = t.y * s + y;
      if (ly >= t.levelHeight) break;
      for (let x = 0; x < s; x++) {
        const lx = t.x * s + x;
        if (lx >= t.levelWidth) break;
        // An overview pixel: the full-resolution pixel at its centre (close to the 2x2 means).
        const v = valuesAt(
          Math.min(width - 1, Math.floor((lx + 0.5) * step)),
          Math.min(height - 1, Math.floor((ly + 0.5) * step)),
        );
        out.set(v, (y * s + x) * nb);
      }
    }
    return out;
  };

  await writeCog(
    {
      width,
      height,
      bands: nb,
      sampleType: 'uint16',
      geoTransform,
      epsg,
      ...(options.tileSize ? { tileSize: options.tileSize } : {}),
      nodata: REFLECTANCE.nodata,
      metadata: sceneItems({
        sceneId,
        datetime,
        collection: 'aurora-l2a',
        satellite: 'aurora-1',
        level: 0,
        resolutionM: size,
      }),
      bandMetadata: reflectanceBands(SITE_BANDS),
    },
    tiles,
    sink,
    compression,
  );
  const centre = (x: number, y: number) => [Math.floor(x), Math.floor(y)] as const;
  return {
    width,
    height,
    epsg,
    geoTransform,
    sceneId,
    datetime,
    coverAt,
    valuesAt,
    lonLatOf: (col, row) => {
      const [x, y] = pixelToMap(geoTransform, col + 0.5, row + 0.5);
      return mapToLonLat(epsg, x, y);
    },
    places: {
      water: centre(lake.cx, lake.cy),
      vegetation: centre((field.x0 + field.x1) / 2, (field.y0 + field.y1) / 2),
      soil: centre(0.05 * width, 0.05 * height),
    },
  };
}

/** zlib without Node (the tests of the renderer). */
const portableZlib: Compression = {
  inflate: (bytes, maxBytes) => inflateSync(bytes, { out: new Uint8Array(maxBytes) }),
  deflate: (bytes, level) => zlibSync(bytes, { level: level as 6 }),
};

/** A site window's bytes, in memory (the renderer's tests read it by range). */
export async function siteRasterBytes(
  options: SiteWindowOptions = {},
): Promise<{ bytes: Uint8Array; site: SiteRaster }> {
  let bytes = new Uint8Array(1 << 20);
  let end = 0;
  const sink: PositionalSink = {
    write(offset, chunk) {
      if (offset + chunk.length > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, offset + chunk.length));
        grown.set(bytes);
        bytes = grown;
      }
      bytes.set(chunk, offset);
      end = Math.max(end, offset + chunk.length);
    },
  };
  const site = await writeSiteRaster(sink, options, portableZlib);
  return { bytes: bytes.slice(0, end), site };
}
