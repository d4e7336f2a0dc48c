/**
 * The upgrade of a mirror from before `0010_compact_catalog`: that migration renames the
 * catalog table to `catalog_records_json` and creates the compact one; this moves the records
 * across, after the migrations, each batch in one transaction that writes the packed rows and
 * deletes their old ones. A run killed at any point leaves every record in exactly one of the
 * two tables, and the next run goes on from there. Each record's JSON text is packed as it was
 * stored (byte for byte); its row number is kept, so the R*Tree and the footprints stay valid.
 * When the old table is empty it is dropped, and the file, most of it free pages then, is
 * compacted (`compactIfMostlyFree`).
 */
import {
  COMPACT_LAYOUT,
  makeCatalogMover,
  type CatalogRecordOut,
  type SqlRow,
} from '@eo/catalog-store';
import type { catalogRecords as jsonCatalogRecords } from '@eo/catalog-store';
import type Database from 'better-sqlite3';

const OLD_TABLE = 'catalog_records_json';
/** Records per transaction: a kill loses at most one batch of work. */
export const UPGRADE_BATCH = 2_000;

export interface UpgradeProgress {
  /** Records moved so far by this run. */
  readonly moved: number;
  /** Records left to move when this run began. */
  readonly total: number;
}

type OldRow = Pick<
  SqlRow<typeof jsonCatalogRecords>,
  'seq' | 'id' | 'order_id' | 'order_item_id' | 'org_id' | 'record_json'
>;

/**
 * The parsed record, or (a text that is not a JSON object) as much as the old row says of it.
 * The row's id is kept whatever the text says: the row is moved, never re-keyed.
 */
function recordOf(row: OldRow): CatalogRecordOut {
  try {
    const r = JSON.parse(row.record_json) as unknown;
    if (typeof r === 'object' && r !== null && !Array.isArray(r))
      return { ...r, id: row.id } as unknown as CatalogRecordOut;
  } catch {
    // Kept as text below.
  }
  return { id: row.id } as unknown as CatalogRecordOut;
}

/**
 * Moves what is left in the old table (none: returns 0 at once). `onProgress` after each
 * committed batch.
 */
export function upgradeCatalogRecords(
  sqlite: Database.Database,
  onProgress?: (p: UpgradeProgress) => void,
): number {
  const exists = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(OLD_TABLE);
  if (exists === undefined) return 0;
  const total = sqlite.prepare(`SELECT count(*) FROM ${OLD_TABLE}`).pluck().get() as number;
  const next = sqlite.prepare(
    `SELECT seq, id, org_id, order_id, order_item_id, record_json FROM ${OLD_TABLE}
     ORDER BY seq LIMIT ?`,
  );
  const drop = sqlite.prepare(`DELETE FROM ${OLD_TABLE} WHERE seq <= ?`);
  const move = makeCatalogMover(sqlite, 'lenient', COMPACT_LAYOUT);
  const batch = sqlite.transaction((): number => {
    const rows = next.all(UPGRADE_BATCH) as OldRow[];
    for (const row of rows)
      move(row.seq, recordOf(row), row.record_json, {
        orgId: row.org_id,
        orderId: row.order_id,
        orderItemId: row.order_item_id,
      });
    if (rows.length > 0) drop.run(rows[rows.length - 1]!.seq);
    return rows.length;
  });
  let moved = 0;
  for (let n = batch.immediate(); n > 0; n = batch.immediate()) {
    moved += n;
    onProgress?.({ moved, total });
  }
  sqlite
    .transaction(() => {
      // Row numbers continue after the old table's, as if it had never been renamed.
      sqlite
        .prepare(
          `UPDATE sqlite_sequence SET seq = max(seq, coalesce(
           (SELECT seq FROM sqlite_sequence WHERE name = '${OLD_TABLE}'), 0))
         WHERE name = 'catalog_records'`,
        )
        .run();
      sqlite.exec(`DROP TABLE ${OLD_TABLE}`);
    })
    .immediate();
  return moved;
}

/**
 * VACUUM when more than half the file is free pages (after the upgrade above, or a sweep that
 * removed most records): without auto-vacuum SQLite reuses free pages but never gives them
 * back to the disk. Mirrors made since are incremental (`open.ts`): `givePagesBack`.
 */
export function compactIfMostlyFree(sqlite: Database.Database): boolean {
  const free = sqlite.pragma('freelist_count', { simple: true }) as number;
  const pages = sqlite.pragma('page_count', { simple: true }) as number;
  if (free * 2 <= pages || pages < 64) return false;
  // The file rewritten anyway: from now on it gives free pages back as it goes (a mirror
  // from before `auto_vacuum` was set on new files).
  sqlite.pragma('auto_vacuum = INCREMENTAL');
  sqlite.exec('VACUUM');
  return true;
}
