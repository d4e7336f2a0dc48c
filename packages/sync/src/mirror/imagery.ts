/**
 * Mirrored quicklooks on disk: one PNG file per (catalog record or archive scene of a saved
 * archive search, variant) in a folder beside
 * the database (`<db>.imagery/`, 0700; files 0600), indexed by `mirror_imagery`. Index maps of
 * mirrored visualizations live beside them (record = visualization, variant `index:<date>`,
 * with their AOI and legend), under the same budget and checks. Nothing is used before it is
 * checked: a file whose size, SHA-256 or PNG header does not match is deleted with its row (the
 * next sync fetches it again). Downloading is pull/imagery.ts and pull/index-maps.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { IMAGERY_CHOICES, type ImageryChoice, type QuicklookVariant } from '@eo/domain';
import type Database from 'better-sqlite3';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../db/private-files';
import { readPngHeader } from './png-header';

/** What `eo sync --imagery` mirrors (defined in @eo/domain, shared with the desktop's settings). */
export { IMAGERY_CHOICES, type ImageryChoice };

export const IMAGERY_VARIANTS: Readonly<Record<ImageryChoice, readonly QuicklookVariant[]>> = {
  off: [],
  thumbnails: ['thumbnail'],
  overviews: ['thumbnail', 'overview'],
};

/** Default byte budget: ~25,000 thumbnails (~40 kB) or ~3,000 overviews. */
export const DEFAULT_IMAGERY_BUDGET_BYTES = 1024 ** 3;

export const imageryDir = (dbFile: string): string => `${path.resolve(dbFile)}.imagery`;
/**
 * The offline rasters' folder inside the imagery folder (src/offline/): their files share the
 * budget with the quicklooks, are never evicted for them, and are not this store's orphans.
 */
export const RASTERS_DIR = 'rasters';

/** A quicklook, or the index map of a visualization for one date (`index:YYYY-MM-DD`). */
export type ImageryVariant = QuicklookVariant | `index:${string}`;
export const indexMapVariant = (date: string): ImageryVariant => `index:${date}`;

/** What the store keeps beside an index map's bytes. */
export interface IndexMapMeta {
  readonly aoiId: string;
  /** JSON: `IndexMapLegend` plus the index's id and name (pull/index-maps.ts). */
  readonly legendJson: string;
}

/** A stored index map, as listed for one AOI (bytes are read with `get`). */
export interface StoredIndexMap {
  readonly visualizationId: string;
  readonly date: string;
  readonly bytes: number;
  readonly legendJson: string;
}

interface Row {
  record_id: string;
  variant: ImageryVariant;
  file: string;
  bytes: number;
  sha256: string;
  last_viewed_us: number;
}

export interface ImageryCounts {
  readonly thumbnail: number;
  readonly overview: number;
  /** Index maps of visualizations (one per date). */
  readonly indexMap: number;
  /** Offline rasters stored (src/offline/). */
  readonly raster: number;
  /** Every stored file's bytes: quicklooks, index maps and offline rasters (one budget). */
  readonly bytes: number;
}

export interface ImageryStore {
  readonly dir: string;
  /** The checked bytes of a stored quicklook; null when absent or bad (then deleted). */
  get(recordId: string, variant: ImageryVariant): Buffer | null;
  /** Whether a quicklook is indexed and its file has the indexed size (no hashing). */
  present(recordId: string, variant: ImageryVariant): boolean | 'bad';
  /** Stores checked bytes (written to a temp name, then renamed) and indexes them. */
  put(recordId: string, variant: ImageryVariant, bytes: Buffer, meta?: IndexMapMeta): void;
  drop(recordId: string, variant: ImageryVariant): void;
  /** The index maps stored for an AOI, newest date first. */
  indexMaps(aoiId: string): StoredIndexMap[];
  /** Marks a record's quicklooks viewed now (eviction removes the least recently viewed). */
  touch(recordId: string): void;
  counts(): ImageryCounts;
  /**
   * Deletes least recently viewed quicklooks until at most `budget` bytes are stored, offline
   * rasters counted (they are never evicted: a field team took them offline on purpose).
   */
  evictTo(budget: number): number;
  /**
   * Deletes quicklooks of records no longer mirrored (catalog records, archive scenes of saved
   * searches), and files the index does not name.
   */
  removeOrphans(): number;
  clear(): void;
}

const nowUs = () => Date.now() * 1000;
const sha256 = (b: Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

export function makeImageryStore(sqlite: Database.Database, dbFile: string): ImageryStore {
  const dir = imageryDir(dbFile);
  const q = {
    row: sqlite.prepare<[string, string], Row>(
      'SELECT * FROM mirror_imagery WHERE record_id = ? AND variant = ?',
    ),
    upsert: sqlite.prepare(
      `INSERT INTO mirror_imagery
         (record_id, variant, file, bytes, sha256, fetched_at_us, aoi_id, legend_json)
       VALUES (@recordId, @variant, @file, @bytes, @sha256, @now, @aoiId, @legendJson)
       ON CONFLICT (record_id, variant) DO UPDATE SET file = excluded.file,
         bytes = excluded.bytes, sha256 = excluded.sha256, fetched_at_us = excluded.fetched_at_us,
         aoi_id = excluded.aoi_id, legend_json = excluded.legend_json`,
    ),
    delete: sqlite.prepare('DELETE FROM mirror_imagery WHERE record_id = ? AND variant = ?'),
    touch: sqlite.prepare('UPDATE mirror_imagery SET last_viewed_us = ? WHERE record_id = ?'),
    counts: sqlite.prepare<[], { variant: string; n: number; bytes: number }>(
      `SELECT CASE WHEN variant LIKE 'index:%' THEN 'index' ELSE variant END AS variant,
         count(*) AS n, sum(bytes) AS bytes FROM mirror_imagery GROUP BY 1`,
    ),
    indexMaps: sqlite.prepare<[string], StoredIndexMap>(
      `SELECT record_id AS visualizationId, substr(variant, 7) AS date, bytes,
         legend_json AS legendJson
       FROM mirror_imagery WHERE aoi_id = ? AND variant LIKE 'index:%' AND legend_json IS NOT NULL
       ORDER BY date DESC, record_id`,
    ),
    total: sqlite.prepare<[], number>('SELECT coalesce(sum(bytes), 0) FROM mirror_imagery').pluck(),
    rasters: sqlite.prepare<[], { n: number; bytes: number }>(
      "SELECT count(*) AS n, coalesce(sum(bytes), 0) AS bytes FROM offline_rasters WHERE state = 'stored'",
    ),
    leastViewed: sqlite.prepare<[], Row>(
      'SELECT * FROM mirror_imagery ORDER BY last_viewed_us, fetched_at_us LIMIT 256',
    ),
    orphans: sqlite.prepare<[], Row>(
      `SELECT * FROM mirror_imagery i
       WHERE CASE WHEN i.variant LIKE 'index:%'
         THEN NOT EXISTS (SELECT 1 FROM mirror_visualizations v WHERE v.id = i.record_id)
         ELSE NOT EXISTS (SELECT 1 FROM catalog_records c WHERE c.id = i.record_id)
           AND NOT EXISTS (SELECT 1 FROM mirror_archive_scenes a WHERE a.id = i.record_id) END`,
    ),
    files: sqlite.prepare<[], string>('SELECT file FROM mirror_imagery').pluck(),
  };

  const unlink = (file: string) => fs.rmSync(path.join(dir, file), { force: true });
  const forget = (row: Row) => {
    unlink(row.file);
    q.delete.run(row.record_id, row.variant);
  };
  // The file name is a hash of the id: record ids may hold characters no file system takes
  // (and an index map's variant a colon, which Windows does not).
  const fileName = (recordId: string, variant: ImageryVariant) =>
    `${sha256(Buffer.from(recordId)).slice(0, 40)}-${variant.replace(/[^A-Za-z0-9-]/g, '_')}.png`;

  return {
    dir,
    get(recordId, variant) {
      const row = q.row.get(recordId, variant);
      if (!row) return null;
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(path.join(dir, row.file));
      } catch {
        forget(row);
        return null;
      }
      if (bytes.length !== row.bytes || sha256(bytes) !== row.sha256 || !readPngHeader(bytes)) {
        forget(row);
        return null;
      }
      return bytes;
    },
    present(recordId, variant) {
      const row = q.row.get(recordId, variant);
      if (!row) return false;
      try {
        if (fs.statSync(path.join(dir, row.file)).size === row.bytes) return true;
      } catch {
        // missing file: bad, like a wrong size
      }
      forget(row);
      return 'bad';
    },
    put(recordId, variant, bytes, meta) {
      makePrivateDir(dir);
      const file = fileName(recordId, variant);
      const temp = path.join(dir, `${file}.${process.pid}.part`);
      try {
        const fd = fs.openSync(temp, 'w', PRIVATE_FILE_MODE);
        try {
          fs.fchmodSync(fd, PRIVATE_FILE_MODE); // an existing temp file keeps its mode otherwise
          // No fsync: it blocks the event loop (every download waits) and buys nothing here. A
          // picture lost or torn by a power cut fails its size or hash check (`present`, `get`),
          // is deleted and fetched again; the quicklooks wire bench measured 1.49× the link's
          // floor with it, 1.25× without (300 thumbnails, 20 Mbit/s).
          fs.writeSync(fd, bytes);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(temp, path.join(dir, file));
      } catch (e) {
        // A full disk (or any failed write) leaves no temp file behind, empty or torn.
        fs.rmSync(temp, { force: true });
        throw e;
      }
      q.upsert.run({
        recordId,
        variant,
        file,
        bytes: bytes.length,
        sha256: sha256(bytes),
        now: nowUs(),
        aoiId: meta?.aoiId ?? null,
        legendJson: meta?.legendJson ?? null,
      });
    },
    drop(recordId, variant) {
      const row = q.row.get(recordId, variant);
      if (row) forget(row);
    },
    indexMaps: (aoiId) => q.indexMaps.all(aoiId),
    touch(recordId) {
      q.touch.run(nowUs(), recordId);
    },
    counts() {
      const rows = q.counts.all();
      const n = (v: string) => rows.find((r) => r.variant === v)?.n ?? 0;
      const rasters = q.rasters.get()!;
      return {
        thumbnail: n('thumbnail'),
        overview: n('overview'),
        indexMap: n('index'),
        raster: rasters.n,
        bytes: rows.reduce((s, r) => s + r.bytes, 0) + rasters.bytes,
      };
    },
    evictTo(budget) {
      let evicted = 0;
      let total = q.total.get()! + q.rasters.get()!.bytes;
      while (total > budget) {
        const rows = q.leastViewed.all();
        if (rows.length === 0) break; // only offline rasters left: never evicted
        for (const row of rows) {
          if (total <= budget) break;
          forget(row);
          total -= row.bytes;
          evicted++;
        }
      }
      return evicted;
    },
    removeOrphans() {
      const rows = q.orphans.all();
      for (const row of rows) forget(row);
      if (!fs.existsSync(dir)) return rows.length;
      // Files no row names: temp files of an interrupted download, rows lost with a crash.
      const named = new Set(q.files.all());
      for (const f of fs.readdirSync(dir)) if (!named.has(f) && f !== RASTERS_DIR) unlink(f);
      return rows.length;
    },
    clear() {
      sqlite.prepare('DELETE FROM mirror_imagery').run();
      // Offline rasters are pulled data too: their rows go with their folder.
      sqlite.prepare('DELETE FROM offline_raster_parts').run();
      sqlite.prepare('DELETE FROM offline_rasters').run();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
