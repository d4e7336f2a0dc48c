/**
 * The provider's `POST /v0/archives/search` over our archive (an extension): STAC API item
 * search across collections by `collections`, `ids`, `datetime` (an interval), and `bbox` or
 * `intersects` (a footprint must meet it), newest first, offset paged. Unknown collections are
 * a 400 naming them (the provider answers 404; see docs/choices-field-operations.md).
 */
import {
  bboxPolygons,
  geometryBbox,
  parseInstantRange,
  type ArchiveSearchRequest,
  type Link,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import {
  boxParams,
  installSpatialFunctions,
  rtreeBoxCondition,
  withQueryGeometry,
} from '@eo/catalog-store';
import { ApiError } from '../http/errors';
import { collectionById } from '../reference/catalog';
import { GEOJSON } from './links';
import { SCENE_COLUMNS } from './list';
import type { ArchiveSceneRow } from './repository';

function bodyError(path: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', `Invalid body: ${path}: ${message}`, [
    { path, message, in: 'body' },
  ]);
}

const listParams = (prefix: string, values: readonly string[], params: Record<string, unknown>) =>
  values
    .map((v, i) => {
      params[`${prefix}${i}`] = v;
      return `@${prefix}${i}`;
    })
    .join(', ');

export function makeArchiveSearch(sqlite: Database.Database) {
  installSpatialFunctions(sqlite);
  return (req: ArchiveSearchRequest): { rows: ArchiveSceneRow[]; total: number } => {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: req.limit, offset: req.offset };
    if (req.collections !== undefined) {
      req.collections.forEach((c, i) => {
        if (!collectionById(c))
          throw bodyError(`collections.${i}`, `unknown collection ${JSON.stringify(c)}`);
      });
      where.push(`s.collection_id IN (${listParams('c', req.collections, params) || 'NULL'})`);
    }
    if (req.ids !== undefined) {
      where.push(`s.id IN (${listParams('i', req.ids, params) || 'NULL'})`);
    }
    const range = req.datetime === undefined ? undefined : parseInstantRange(req.datetime);
    if (range?.ok && range.value.start !== null) {
      where.push('s.datetime_us >= @start_us');
      params.start_us = range.value.start;
    }
    if (range?.ok && range.value.end !== null) {
      where.push('s.datetime_us <= @end_us');
      params.end_us = range.value.end;
    }
    const run = (from: string) => {
      const clause = where.length > 0 ? where.join(' AND ') : '1';
      const total = (
        sqlite.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${clause}`).get(params) as {
          n: number;
        }
      ).n;
      const rows = sqlite
        .prepare(
          `SELECT ${SCENE_COLUMNS} FROM ${from} WHERE ${clause}
           ORDER BY s.datetime_us DESC, s.seq DESC LIMIT @limit OFFSET @offset`,
        )
        .all(params) as ArchiveSceneRow[];
      return { rows, total };
    };
    // The box as the domain's rectangle (the schema refused one across 180°: one polygon).
    const area =
      req.intersects ??
      (req.bbox ? bboxPolygons(req.bbox as [number, number, number, number])[0] : undefined);
    if (!area) return run('archive_scenes s');
    const box = geometryBbox(area);
    if (!box) return { rows: [], total: 0 };
    return withQueryGeometry(sqlite, area, (token) => {
      Object.assign(params, boxParams(box), { token });
      where.unshift(rtreeBoxCondition('r'));
      where.push(`eo_intersects(@token, json_extract(s.feature_json, '$.geometry'))`);
      return run('archive_scenes_rtree r CROSS JOIN archive_scenes s ON s.seq = r.seq');
    });
  };
}

/** self and next links of a search page: POST links carrying the request body (STAC API style). */
export function archiveSearchLinks(req: ArchiveSearchRequest, returned: number, total: number) {
  const link = (rel: string, offset: number): Link => ({
    rel,
    href: '/v0/archives/search',
    type: GEOJSON,
    method: 'POST',
    body: { ...req, offset },
  });
  const links = [link('self', req.offset)];
  if (req.offset + returned < total) links.push(link('next', req.offset + req.limit));
  return links;
}
