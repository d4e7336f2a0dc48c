/**
 * Small archive scenes (a few km: their COG renders in seconds), shaped like the seed's: a
 * square footprint turned like a satellite track, and the north-up UTM grid around it at the
 * satellite's GSD. The demo's field sites are made of them (`demo-sites.ts`), and so are the
 * scenes of tests and benchmarks of the scene COGs and the downloads built on them (exported
 * from `@eo/reference-service`).
 */
import type Database from 'better-sqlite3';
import { toUtm, utmEpsg, utmZone } from '@eo/domain';
import { makeArchiveInserter, type ArchiveFeatureIn } from '../archive/repository';
import { satelliteById } from '../reference/catalog';

export interface SquareScene {
  readonly id: string;
  readonly lon: number;
  readonly lat: number;
  /** Side of the (square) footprint, km. */
  readonly km: number;
  readonly datetime: string;
  readonly cloudCover?: number;
  /** Heading of the footprint's sides, degrees (a satellite track is ~10° off north). */
  readonly rotateDeg?: number;
  readonly satelliteId?: string;
}

/** A STAC feature like the seed's: rotated square footprint, the north-up UTM grid around it. */
export function squareSceneFeature(s: SquareScene): ArchiveFeatureIn {
  const sat = satelliteById(s.satelliteId ?? 'sat-aurora-1')!;
  const rot = ((s.rotateDeg ?? 10) * Math.PI) / 180;
  const half = s.km / 2;
  const kmLon = 111.32 * Math.cos((s.lat * Math.PI) / 180);
  const corner = (dx: number, dy: number): [number, number] => {
    const ex = dx * Math.cos(rot) + dy * Math.sin(rot);
    const ny = -dx * Math.sin(rot) + dy * Math.cos(rot);
    return [s.lon + ex / kmLon, s.lat + ny / 110.57];
  };
  const ring = [corner(-half, half), corner(half, half), corner(half, -half), corner(-half, -half)];
  const zone = utmZone(s.lon);
  const south = s.lat < 0;
  const xy = ring.map(([lon, lat]) => toUtm(lon, lat, zone, south));
  const px = sat.gsd;
  const minX = Math.floor(Math.min(...xy.map((p) => p[0])) / px) * px;
  const maxX = Math.ceil(Math.max(...xy.map((p) => p[0])) / px) * px;
  const minY = Math.floor(Math.min(...xy.map((p) => p[1])) / px) * px;
  const maxY = Math.ceil(Math.max(...xy.map((p) => p[1])) / px) * px;
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return {
    type: 'Feature',
    id: s.id,
    collection: sat.collectionId,
    bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
    geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] },
    properties: {
      datetime: s.datetime,
      platform: sat.platform,
      constellation: sat.constellation,
      'eo:cloud_cover': s.cloudCover ?? 0,
      gsd: sat.gsd,
      'view:off_nadir': 0,
      'view:sun_elevation': 50,
      'view:sun_azimuth': 160,
      'proj:code': `EPSG:${utmEpsg(s.lon, s.lat)}`,
      'proj:shape': [Math.round((maxY - minY) / px), Math.round((maxX - minX) / px)],
      'proj:transform': [px, 0, minX, 0, -px, maxY],
    },
  };
}

/** Adds the scene to the archive (every organisation sees it); its STAC feature. */
export function insertSquareScene(sqlite: Database.Database, s: SquareScene): ArchiveFeatureIn {
  const f = squareSceneFeature(s);
  makeArchiveInserter(sqlite)(f, s.satelliteId ?? 'sat-aurora-1');
  return f;
}
