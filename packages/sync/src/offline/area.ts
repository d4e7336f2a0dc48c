/**
 * The area of a site to take offline, in longitude/latitude: a mirrored AOI's geometry, the areas
 * of a field file (every format `@eo/formats` reads, checked and repaired as it checks any
 * area; several areas are taken together), or a circle around a position (a buffer of so many
 * metres, as a 64-sided polygon on the sphere). Each comes with a label saying where it came
 * from, kept with the raster.
 */
import {
  AUTHALIC_RADIUS_M,
  AreaGeometryInput,
  type Geometry,
  type MultiPolygon,
  type Polygon,
} from '@eo/domain';
import type Database from 'better-sqlite3';

export interface SiteArea {
  readonly geometry: Polygon | MultiPolygon;
  /** Where it came from, for lists: `AOI North field`, `site.geojson`, `500 m around 11.3, 44.5`. */
  readonly label: string;
}

export class AreaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AreaError';
  }
}

/** Largest buffer radius: a site, not a region (a 2 km × 2 km site is a 1.1 km radius). */
export const MAX_BUFFER_M = 50_000;
const SIDES = 64;

function asArea(geometry: Geometry, label: string): SiteArea {
  const checked = AreaGeometryInput.safeParse(geometry);
  if (!checked.success || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon'))
    throw new AreaError(`${label} is not an area (a Polygon or MultiPolygon)`);
  return { geometry, label };
}

/** The geometry of a mirrored AOI (run `eo sync` to mirror it first). */
export function areaOfAoi(sqlite: Database.Database, aoiId: string): SiteArea {
  const row = sqlite
    .prepare<[string], { json: string; name: string | null }>(
      'SELECT json, name FROM mirror_aois WHERE aoi_id = ?',
    )
    .get(aoiId);
  if (!row) throw new AreaError(`AOI ${aoiId} is not in the mirror (run eo sync first)`);
  const geometry = (JSON.parse(row.json) as { geometry?: Geometry }).geometry;
  if (!geometry) throw new AreaError(`AOI ${aoiId} has no geometry in the mirror`);
  return asArea(geometry, `AOI ${row.name ?? aoiId}`);
}

/**
 * Every area of a field file, together (a file whose features are not all areas is refused).
 * The readers load on first use (the app's first screen does not carry them) and read the file
 * in a thread with memory and time limits: a hostile file fails there, not here.
 */
export async function areaFromFile(name: string, bytes: Uint8Array): Promise<SiteArea> {
  const { FormatError, importFileInWorker, mergeAreas } = await import('@eo/formats');
  let preview;
  try {
    preview = await importFileInWorker({ name, bytes });
  } catch (e) {
    if (e instanceof FormatError) throw new AreaError(e.message);
    throw e;
  }
  const refused = preview.features.find((f) => f.area === null);
  if (refused)
    throw new AreaError(
      `${name}: feature ${refused.index} (${refused.name}) is not an area: ${refused.problem ?? 'no geometry'}`,
    );
  const areas = preview.features.map((f) => f.area!);
  if (areas.length === 0) throw new AreaError(`${name} holds no area`);
  return asArea(areas.length === 1 ? areas[0]! : mergeAreas(areas), name);
}

/** A circle of `radiusM` metres around (lon, lat), as a polygon (counter-clockwise). */
export function areaAround(lon: number, lat: number, radiusM: number): SiteArea {
  if (!(lon >= -180 && lon <= 180 && lat > -85 && lat < 85))
    throw new AreaError(`${lon}, ${lat} is not a longitude, latitude within ±85°`);
  if (!(radiusM > 0 && radiusM <= MAX_BUFFER_M))
    throw new AreaError(`a buffer radius must be more than 0 and at most ${MAX_BUFFER_M} m`);
  const rad = Math.PI / 180;
  const d = radiusM / AUTHALIC_RADIUS_M;
  const [la, lo] = [lat * rad, lon * rad];
  const ring: [number, number][] = [];
  for (let k = 0; k < SIDES; k++) {
    // Counter-clockwise: bearings from east, turning north.
    const bearing = ((90 - (360 * k) / SIDES) * rad + 2 * Math.PI) % (2 * Math.PI);
    const lat2 = Math.asin(
      Math.sin(la) * Math.cos(d) + Math.cos(la) * Math.sin(d) * Math.cos(bearing),
    );
    const lon2 =
      lo +
      Math.atan2(
        Math.sin(bearing) * Math.sin(d) * Math.cos(la),
        Math.cos(d) - Math.sin(la) * Math.sin(lat2),
      );
    ring.push([lon2 / rad, lat2 / rad]);
  }
  ring.push(ring[0]!);
  const label = `${radiusM} m around ${lon.toFixed(5)}, ${lat.toFixed(5)}`;
  return asArea({ type: 'Polygon', coordinates: [ring] }, label);
}
