/** Reads and writes of indices, scoped to an organisation (presets are shared). */
import type { SqlRow } from '@eo/catalog-store';
import type { indices } from './schema';
import type { ListIndicesQuery, SpectralIndex } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { toMicro } from '../time';

type IndexRow = SqlRow<typeof indices>;

export type IndexOut = z.input<typeof SpectralIndex>;

export function indexToWire(r: IndexRow): IndexOut {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    expression: r.expression,
    expression_type: r.expression_type as IndexOut['expression_type'],
    type: r.type as IndexOut['type'],
    rescale: JSON.parse(r.rescale_json) as number[],
    colormap: r.colormap,
    satellite_id: r.satellite_id,
    bands: JSON.parse(r.bands_json) as string[],
    org_id: r.org_id,
    user_id: r.user_id,
    created_at: toMicro(r.created_at),
    updated_at: toMicro(r.updated_at),
  };
}

export interface NewIndex {
  id: string;
  orgId: string | null;
  userId: string | null;
  name: string;
  description: string;
  expression: string;
  expressionType: string;
  type: string;
  rescale: number[];
  colormap: string;
  satelliteId: string;
  bands: string[];
  nowUs: number;
}

export function insertIndex(sqlite: Database.Database, i: NewIndex): void {
  sqlite
    .prepare(
      `INSERT INTO indices (id, org_id, user_id, name, description, expression, expression_type, type,
        rescale_json, colormap, satellite_id, bands_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      i.id,
      i.orgId,
      i.userId,
      i.name,
      i.description,
      i.expression,
      i.expressionType,
      i.type,
      JSON.stringify(i.rescale),
      i.colormap,
      i.satelliteId,
      JSON.stringify(i.bands),
      i.nowUs,
      i.nowUs,
    );
}

export function getIndex(
  sqlite: Database.Database,
  orgId: string,
  id: string,
): IndexRow | undefined {
  return sqlite
    .prepare<[string, string], IndexRow>(
      'SELECT * FROM indices WHERE id = ? AND (org_id IS NULL OR org_id = ?)',
    )
    .get(id, orgId);
}

export function listIndices(
  sqlite: Database.Database,
  orgId: string,
  q: ListIndicesQuery,
): { rows: IndexRow[]; total: number } {
  const where = ['(org_id IS NULL OR org_id = @orgId)'];
  if (q.satellite_id) where.push('satellite_id = @satellite_id');
  if (q.type) where.push('type = @type');
  if (q.expression_type) where.push('expression_type = @expression_type');
  if (q.index_id) where.push('id = @index_id');
  const params = {
    orgId,
    satellite_id: q.satellite_id,
    type: q.type,
    expression_type: q.expression_type,
    index_id: q.index_id,
    limit: q.limit,
    offset: q.offset,
  };
  const clause = where.join(' AND ');
  const total = sqlite
    .prepare<[typeof params], { n: number }>(`SELECT count(*) AS n FROM indices WHERE ${clause}`)
    .get(params)!.n;
  const rows = sqlite
    .prepare<[typeof params], IndexRow>(
      `SELECT * FROM indices WHERE ${clause} ORDER BY seq LIMIT @limit OFFSET @offset`,
    )
    .all(params);
  return { rows, total };
}
