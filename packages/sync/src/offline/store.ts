/** SQL of the offline rasters and the journal of their part files (schema.ts). */
import type { SqlRow } from '@eo/catalog-store';
import type Database from 'better-sqlite3';
import type { offlineRasterParts, offlineRasters } from './schema';

export type OfflineRasterRow = SqlRow<typeof offlineRasters>;
export type PartRow = SqlRow<typeof offlineRasterParts>;

export const OFFLINE_STATES = [
  'requesting',
  'unconfirmed',
  'following',
  'fetching',
  'stored',
  'failed',
] as const;
export type OfflineState = (typeof OFFLINE_STATES)[number];

export const SCENE_KINDS = ['catalog', 'order_item', 'aoi_asset'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

/** Columns a step may change (the rest are written once, at creation). */
export type RasterChange = Partial<
  Omit<OfflineRasterRow, 'id' | 'scene_kind' | 'scene_ref' | 'aoi_id' | 'created_at_us'>
>;

const nowUs = () => Date.now() * 1000;

export function makeOfflineRasterStore(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    `INSERT INTO offline_rasters (id, scene_kind, scene_ref, aoi_id, scene_id, area_json, area_label,
       resolution, idempotency_key, state, created_at_us, updated_at_us)
     VALUES (@id, @scene_kind, @scene_ref, @aoi_id, @scene_id, @area_json, @area_label,
       @resolution, @idempotency_key, @state, @created_at_us, @updated_at_us)`,
  );
  const byId = sqlite.prepare<[string], OfflineRasterRow>(
    'SELECT * FROM offline_rasters WHERE id = ?',
  );
  const all = sqlite.prepare<[], OfflineRasterRow>(
    'SELECT * FROM offline_rasters ORDER BY created_at_us DESC, id',
  );
  const storedBytes = sqlite
    .prepare<[], number>(
      "SELECT coalesce(sum(bytes), 0) FROM offline_rasters WHERE state = 'stored'",
    )
    .pluck();
  const remove = sqlite.prepare('DELETE FROM offline_rasters WHERE id = ?');
  const parts = sqlite.prepare<[string], PartRow>(
    'SELECT * FROM offline_raster_parts WHERE raster_id = ? ORDER BY part_offset',
  );
  const addPart = sqlite.prepare(
    `INSERT INTO offline_raster_parts (raster_id, part, part_offset, length, sha256)
     VALUES (@raster_id, @part, @part_offset, @length, @sha256)`,
  );
  const dropPart = sqlite.prepare(
    'DELETE FROM offline_raster_parts WHERE raster_id = ? AND part = ?',
  );
  const dropParts = sqlite.prepare('DELETE FROM offline_raster_parts WHERE raster_id = ?');
  const files = sqlite
    .prepare<[], string>('SELECT file FROM offline_rasters WHERE file IS NOT NULL')
    .pluck();
  const ids = sqlite.prepare<[], string>('SELECT id FROM offline_rasters').pluck();

  return {
    create(
      row: Pick<
        OfflineRasterRow,
        | 'id'
        | 'scene_kind'
        | 'scene_ref'
        | 'aoi_id'
        | 'scene_id'
        | 'area_json'
        | 'area_label'
        | 'resolution'
        | 'idempotency_key'
      >,
    ): OfflineRasterRow {
      const now = nowUs();
      insert.run({ ...row, state: 'requesting', created_at_us: now, updated_at_us: now });
      return byId.get(row.id)!;
    },
    get: (id: string) => byId.get(id),
    all: () => all.all(),
    /** Writes the changed columns (and `updated_at_us`); returns the row as it now is. */
    update(id: string, change: RasterChange): OfflineRasterRow {
      const entries = Object.entries({ ...change, updated_at_us: nowUs() });
      // Column names come from the row type (never from input): safe to put in the SQL.
      const set = entries.map(([k]) => `${k} = @${k}`).join(', ');
      sqlite.prepare(`UPDATE offline_rasters SET ${set} WHERE id = @id`).run({
        ...Object.fromEntries(entries),
        id,
      });
      return byId.get(id)!;
    },
    /** Bytes of the stored rasters (they count against the imagery budget). */
    storedBytes: () => storedBytes.get()!,
    remove(id: string): void {
      sqlite.transaction(() => {
        dropParts.run(id);
        remove.run(id);
      })();
    },
    parts: (id: string) => parts.all(id),
    addPart: (p: PartRow) => addPart.run(p),
    dropPart: (id: string, part: string) => dropPart.run(id, part),
    dropParts: (id: string) => dropParts.run(id),
    /** Stored file names, for the imagery store's orphan sweep. */
    files: () => files.all(),
    ids: () => ids.all(),
  };
}

export type OfflineRasterStore = ReturnType<typeof makeOfflineRasterStore>;
