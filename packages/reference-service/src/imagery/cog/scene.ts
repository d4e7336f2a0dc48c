/**
 * What a scene's COG is made of, from its STAC item: the grid (`proj:epsg` or `proj:code`,
 * `proj:transform`, `proj:shape`), the bands of its bandset, and what its quicklook depends on
 * (footprint corners, datetime, cloud cover, sun). Plain data: it goes to a render thread as
 * is, and its hash names the file.
 */
import { utmOfEpsg, toUtm, utmEpsg } from '@eo/domain';
import { fromStacTransform, type GeoTransform } from '@eo/geotiff';
import { bandsetById, SATELLITES, type Band, type Satellite } from '../../reference/catalog';
import { quicklookSceneOf, type QuicklookScene } from '../quicklook';

export interface SceneBandInfo {
  readonly name: string;
  readonly commonName: string;
  readonly wavelengthNm: number;
}

export interface SceneRaster {
  /** The quicklook's inputs: id, footprint corners, datetime, cloud cover, sun. */
  readonly look: QuicklookScene;
  readonly datetime: string;
  readonly collection: string;
  readonly platform: string;
  readonly bandset: string | null;
  readonly bands: readonly SceneBandInfo[];
  readonly epsg: number;
  readonly geoTransform: GeoTransform;
  readonly width: number;
  readonly height: number;
}

interface StacItem {
  id?: unknown;
  collection?: unknown;
  geometry?: unknown;
  bbox?: unknown;
  properties?: Record<string, unknown>;
}

/**
 * Pixels of the largest scene we render into one file (a Kestrel scene at 0.5 m is ~1.2 × 10^9):
 * past it a download fails at once with `tooLargeReason` (docs/choices-downloads.md).
 */
export const MAX_SCENE_PIXELS = 2 ** 31;

/** Why a scene gets no file, when it is past `MAX_SCENE_PIXELS` (null: it is not). */
export function tooLargeReason(scene: Pick<SceneRaster, 'width' | 'height'>): string | null {
  const pixels = scene.width * scene.height;
  if (pixels <= MAX_SCENE_PIXELS) return null;
  return (
    `the scene is ${scene.width} × ${scene.height} px, more than the ` +
    `${MAX_SCENE_PIXELS.toLocaleString('en-US')} px the service renders into one file`
  );
}

const bandInfo = (b: Band): SceneBandInfo => ({
  name: b.name,
  commonName: b.common_name,
  wavelengthNm: b.wavelength,
});

function epsgOf(p: Record<string, unknown>, bbox: readonly number[] | null): number | null {
  if (typeof p['proj:epsg'] === 'number') return p['proj:epsg'];
  const code = typeof p['proj:code'] === 'string' ? /^EPSG:(\d+)$/.exec(p['proj:code']) : null;
  if (code) return Number(code[1]);
  return bbox ? utmEpsg((bbox[0]! + bbox[2]!) / 2, (bbox[1]! + bbox[3]!) / 2) : null;
}

/** The north-up UTM box around a footprint at `gsd` (for items without a grid). */
function gridAround(corners: readonly (readonly [number, number])[], epsg: number, gsd: number) {
  const z = utmOfEpsg(epsg)!;
  const xy = corners.map(([lon, lat]) => toUtm(lon, lat, z.zone, z.south));
  const minX = Math.floor(Math.min(...xy.map((p) => p[0])) / gsd) * gsd;
  const maxX = Math.ceil(Math.max(...xy.map((p) => p[0])) / gsd) * gsd;
  const minY = Math.floor(Math.min(...xy.map((p) => p[1])) / gsd) * gsd;
  const maxY = Math.ceil(Math.max(...xy.map((p) => p[1])) / gsd) * gsd;
  return {
    geoTransform: [minX, gsd, 0, maxY, 0, -gsd] as GeoTransform,
    width: Math.round((maxX - minX) / gsd),
    height: Math.round((maxY - minY) / gsd),
  };
}

/**
 * The raster of a scene: `item` is its STAC item (an archive feature, or a catalog record's
 * `details`), `satellite` who took it, `bandsetId` the record's bandset (none: every band of
 * the satellite). Null when the item has no place or no UTM grid; a grid past
 * `MAX_SCENE_PIXELS` is returned (its download is refused with `tooLargeReason`).
 */
export function sceneRasterOf(
  item: StacItem,
  satellite: Satellite,
  bandsetId: string | null,
): SceneRaster | null {
  const look = quicklookSceneOf(item);
  if (!look) return null;
  const p = item.properties ?? {};
  const bbox = Array.isArray(item.bbox) ? (item.bbox as number[]) : null;
  const epsg = epsgOf(p, bbox);
  if (epsg === null || !utmOfEpsg(epsg)) return null;
  const gsd = typeof p.gsd === 'number' && p.gsd > 0 ? p.gsd : satellite.gsd;
  const shape = p['proj:shape'];
  const transform = p['proj:transform'];
  const grid =
    Array.isArray(shape) && shape.length === 2 && Array.isArray(transform) && transform.length >= 6
      ? {
          geoTransform: fromStacTransform(transform as number[]),
          width: Number(shape[1]),
          height: Number(shape[0]),
        }
      : gridAround(look.corners, epsg, gsd);
  const { width, height } = grid;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) return null;
  const bandset = bandsetId ? bandsetById(bandsetId) : undefined;
  const names = bandset?.bands ?? satellite.bands.map((b) => b.name);
  const bands = names
    .map((n) => satellite.bands.find((b) => b.name === n))
    .filter((b): b is Band => b !== undefined)
    .map(bandInfo);
  return {
    look,
    datetime: String(p.datetime ?? ''),
    collection: String(item.collection ?? ''),
    platform: String(p.platform ?? satellite.platform),
    bandset: bandset?.id ?? null,
    bands,
    epsg,
    ...grid,
  };
}

/** The satellite of a catalog record's item (by platform, else constellation and collection). */
export function satelliteOfItem(item: StacItem): Satellite | undefined {
  const p = item.properties ?? {};
  return (
    SATELLITES.find((s) => s.platform === p.platform) ??
    SATELLITES.find((s) => s.collectionId === item.collection)
  );
}
