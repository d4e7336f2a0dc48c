/**
 * What an id names, from the mirror: a catalog record, an order item, or an AOI asset (with its
 * AOI). `eo download <id>` takes any of them; `kind` says which when the mirror does not know it
 * (not synced yet) or knows it as two things.
 */
import type Database from 'better-sqlite3';
import type { SceneKind } from './store';

export interface SceneChoice {
  readonly kind: SceneKind;
  readonly id: string;
  readonly aoiId?: string;
}

export class SceneLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SceneLookupError';
  }
}

export function findScene(
  sqlite: Database.Database,
  id: string,
  kind?: SceneKind,
  aoiId?: string,
): SceneChoice {
  const has = (sql: string) => sqlite.prepare<[string], { n: number }>(sql).get(id) !== undefined;
  const found: SceneChoice[] = [];
  if ((!kind || kind === 'catalog') && has('SELECT 1 AS n FROM catalog_records WHERE id = ?'))
    found.push({ kind: 'catalog', id });
  if ((!kind || kind === 'order_item') && has('SELECT 1 AS n FROM mirror_order_items WHERE id = ?'))
    found.push({ kind: 'order_item', id });
  if (!kind || kind === 'aoi_asset') {
    const asset = sqlite
      .prepare<[string], { aoi_id: string }>('SELECT aoi_id FROM mirror_assets WHERE id = ?')
      .get(id);
    if (asset) found.push({ kind: 'aoi_asset', id, aoiId: asset.aoi_id });
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    throw new SceneLookupError(
      `${id} is a ${found.map((f) => f.kind).join(' and a ')} in the mirror: say which (--kind)`,
    );
  // Not mirrored: taken as what the user said it is.
  if (kind === 'aoi_asset' && !aoiId)
    throw new SceneLookupError(`asset ${id} is not in the mirror: give its AOI (--aoi)`);
  if (kind) return kind === 'aoi_asset' ? { kind, id, aoiId: aoiId! } : { kind, id };
  throw new SceneLookupError(
    `${id} is not a catalog record, order item or AOI asset in the mirror: run eo sync, or say what it is (--kind catalog|order_item|aoi_asset)`,
  );
}
