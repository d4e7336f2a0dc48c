/**
 * 4.5 POST /v0/search over the archive: one satellite of one collection, an acquisition window,
 * numeric property ranges and a footprint intersection, newest first, skip/limit.
 *
 * Plans: with a geometry, the R*Tree drives (candidates whose box meets the query's box), then
 * the cheap column filters, then the exact `eo_intersects` test; without one, the
 * (satellite_id, datetime_us, seq) index drives and already gives the order.
 */
import { geometryBbox, parseRfc3339, type Link, type SatelliteSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import { ApiError } from '../http/errors';
import { collectionById, satelliteById } from '../reference/catalog';
import {
  boxParams,
  installSpatialFunctions,
  rtreeBoxCondition,
  withQueryGeometry,
} from '@eo/catalog-store';
import { GEOJSON } from './links';
import { SCENE_COLUMNS } from './list';
import type { ArchiveSceneRow } from './repository';

/**
 * Numeric properties a filter may name, and where each is read (indexed column or JSON). A Map:
 * filter ids come from requests, and an object literal would answer `constructor` or `toString`.
 */
export const FILTERABLE_PROPERTIES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'eo:cloud_cover': 's.cloud_cover',
    'view:off_nadir': 's.off_nadir',
    gsd: 's.gsd',
    'view:sun_elevation': 's.sun_elevation',
    'view:sun_azimuth': 's.sun_azimuth',
    altitude: `json_extract(s.feature_json, '$.properties.altitude')`,
    'rd:anomalous_pixels': `json_extract(s.feature_json, '$.properties."rd:anomalous_pixels"')`,
    'rd:earth_sun_distance': `json_extract(s.feature_json, '$.properties."rd:earth_sun_distance"')`,
    'view:scene_center_lat': `json_extract(s.feature_json, '$.properties."view:scene_center_lat"')`,
    'view:scene_center_lon': `json_extract(s.feature_json, '$.properties."view:scene_center_lon"')`,
    'sat:relative_orbit': `json_extract(s.feature_json, '$.properties."sat:relative_orbit"')`,
    'sat:absolute_orbit': `json_extract(s.feature_json, '$.properties."sat:absolute_orbit"')`,
  }),
);

/** The satellite must exist and belong to the collection (400s with the field's path). */
function checkSatellite(req: SatelliteSearchRequest): void {
  const { collection_id, satellite_id } = req.satellite;
  const collection = collectionById(collection_id);
  if (!collection)
    throw bodyError(
      'satellite.collection_id',
      `unknown collection ${JSON.stringify(collection_id)}`,
    );
  if (!satelliteById(satellite_id))
    throw bodyError('satellite.satellite_id', `unknown satellite ${JSON.stringify(satellite_id)}`);
  if (!collection.satelliteIds.includes(satellite_id))
    throw bodyError(
      'satellite.satellite_id',
      `satellite ${JSON.stringify(satellite_id)} is not in collection ${JSON.stringify(collection_id)} (it has ${collection.satelliteIds.join(', ')})`,
    );
}

function bodyError(path: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', `Invalid body: ${path}: ${message}`, [
    { path, message, in: 'body' },
  ]);
}

function satelliteSearchStatements(from: string, where: string) {
  return {
    count: `SELECT count(*) AS n FROM ${from} WHERE ${where}`,
    page: `SELECT ${SCENE_COLUMNS} FROM ${from} WHERE ${where}
           ORDER BY s.datetime_us DESC, s.seq DESC LIMIT @limit OFFSET @skip`,
  };
}

type Plan = { sql: ReturnType<typeof satelliteSearchStatements>; params: Record<string, unknown> };
let lastPlan: Plan | undefined;
/** The statements and parameters of the last search (for query-plan tests). */
export const lastSatelliteSearchPlan = (): Plan | undefined => lastPlan;

export function makeSatelliteSearch(sqlite: Database.Database) {
  installSpatialFunctions(sqlite);
  const cache = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      if (cache.size > 200) cache.clear();
      cache.set(sql, (s = sqlite.prepare(sql)));
    }
    return s;
  };

  return (req: SatelliteSearchRequest): { rows: ArchiveSceneRow[]; total: number } => {
    checkSatellite(req);
    const where = ['s.satellite_id = @satellite_id', 's.collection_id = @collection_id'];
    const params: Record<string, unknown> = {
      satellite_id: req.satellite.satellite_id,
      collection_id: req.satellite.collection_id,
      limit: req.limit,
      skip: req.skip,
    };
    if (req.start_date) {
      where.push('s.datetime_us >= @start_us');
      params.start_us = parseRfc3339(req.start_date);
    }
    if (req.end_date) {
      where.push('s.datetime_us <= @end_us');
      params.end_us = parseRfc3339(req.end_date);
    }
    (req.filters ?? []).forEach((f, i) => {
      const expr = FILTERABLE_PROPERTIES.get(f.id);
      if (!expr) {
        throw bodyError(
          `filters.${i}.id`,
          `${JSON.stringify(f.id)} is not a numeric property of archive items; use one of ${[...FILTERABLE_PROPERTIES.keys()].join(', ')}`,
        );
      }
      if (f.min !== undefined) {
        where.push(`${expr} >= @f${i}_min`);
        params[`f${i}_min`] = f.min;
      }
      if (f.max !== undefined) {
        where.push(`${expr} <= @f${i}_max`);
        params[`f${i}_max`] = f.max;
      }
    });

    const run = (from: string) => {
      const sql = satelliteSearchStatements(from, where.join(' AND '));
      lastPlan = { sql, params };
      const total = (prepare(sql.count).get(params) as { n: number }).n;
      const rows = prepare(sql.page).all(params) as ArchiveSceneRow[];
      return { rows, total };
    };

    if (!req.geometry) return run('archive_scenes s');
    const box = geometryBbox(req.geometry);
    if (!box) return { rows: [], total: 0 };
    return withQueryGeometry(sqlite, req.geometry, (token) => {
      Object.assign(params, boxParams(box), { token });
      where.unshift(rtreeBoxCondition('r'));
      where.push(`eo_intersects(@token, json_extract(s.feature_json, '$.geometry'))`);
      return run('archive_scenes_rtree r CROSS JOIN archive_scenes s ON s.seq = r.seq');
    });
  };
}

/** self and next links of a search page: POST links carrying the request body (STAC API style). */
export function searchLinks(req: SatelliteSearchRequest, returned: number, total: number): Link[] {
  const link = (rel: string, skip: number): Link => ({
    rel,
    href: '/v0/search',
    type: GEOJSON,
    method: 'POST',
    body: { ...req, skip },
  });
  const links = [link('self', req.skip)];
  if (req.skip + returned < total) links.push(link('next', req.skip + req.limit));
  return links;
}
