/**
 * The mirror's pulled tables as a whole: how many records each resource holds, record names by
 * id (the screens name what an outbox entry points at), and clearing what was pulled. The
 * outbox and what this client created are kept by `clear`: they cannot be pulled again.
 */
import { forgetCatalogShared } from '@eo/catalog-store';
import type { SyncResource } from '@eo/domain';
import type Database from 'better-sqlite3';

const TABLES: Record<SyncResource, string> = {
  orders: 'mirror_orders',
  orderItems: 'mirror_order_items',
  aois: 'mirror_aois',
  assets: 'mirror_assets',
  indices: 'mirror_indices',
  catalogs: 'catalog_records',
};

/** Pulled tables, emptied by `clear` (children first). */
const PULLED = [
  'mirror_catalog_seen_marks',
  'mirror_catalog_passes',
  'mirror_footprints_kept',
  'catalog_rtree',
  'catalog_footprints',
  'catalog_unpacked',
  'catalog_records',
  'mirror_tasks',
  'mirror_order_items',
  'mirror_orders',
  'mirror_assets',
  'mirror_aois',
  'mirror_indices',
  'mirror_reference',
  'mirror_archive_search_scenes',
  'mirror_archive_scenes',
  'mirror_archive_searches',
  'mirror_unindexed',
  'sync_drift',
  'sync_state',
];

export function makeMirrorTables(sqlite: Database.Database) {
  const counts = Object.entries(TABLES).map(
    ([resource, table]) =>
      [resource as SyncResource, sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck()] as const,
  );
  const aoiName = sqlite.prepare('SELECT name FROM mirror_aois WHERE aoi_id = ?').pluck();
  const indexName = sqlite.prepare('SELECT name FROM mirror_indices WHERE id = ?').pluck();

  return {
    /** Records stored per resource. */
    counts(): Record<SyncResource, number> {
      return Object.fromEntries(counts.map(([r, s]) => [r, s.get() as number])) as Record<
        SyncResource,
        number
      >;
    },
    /** The mirrored AOI's or index's name; null when not mirrored or nameless. */
    nameOf(what: 'aoi' | 'index', id: string): string | null {
      return ((what === 'aoi' ? aoiName : indexName).get(id) as string | null | undefined) ?? null;
    },
    /** Empties every pulled table, then gives the space back to the file system. */
    clear(): void {
      sqlite.transaction(() => {
        sqlite.pragma('defer_foreign_keys = ON');
        for (const t of PULLED) sqlite.prepare(`DELETE FROM ${t}`).run();
        // The records' shared texts (a dictionary learned from them included) go with them.
        forgetCatalogShared(sqlite);
      })();
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      sqlite.exec('VACUUM');
    },
  };
}
