/** Small helpers shared by the benchmarks: flags, timing, percentiles, sizes, the data cache. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';

export const smoke = process.argv.includes('--smoke');

/**
 * Generated data (the service's data dir, the million-record mirror) is kept here between runs:
 * building it takes minutes, and it is the same data every time (deterministic generator).
 * `EO_BENCH_CACHE` moves it; deleting the folder rebuilds it.
 */
export const CACHE_DIR =
  process.env.EO_BENCH_CACHE ?? path.join(os.tmpdir(), 'eo-sync-bench-cache');

/** Progress to stderr (figures go to stdout). */
export const log = (s: string): void => void process.stderr.write(`${s}\n`);

export const nowMs = (): number => performance.now();

/** The p-th percentile (nearest rank) of `xs`. */
export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `eo-sync-bench-${name}-`));
}

/**
 * Builds a cached artefact once: `build(dir)` fills a fresh folder, which is then renamed into
 * place (a build killed halfway never looks finished).
 */
export async function cached(name: string, build: (dir: string) => Promise<void> | void) {
  const dir = path.join(CACHE_DIR, name);
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.rmSync(dir, { recursive: true, force: true });
  const work = fs.mkdtempSync(path.join(CACHE_DIR, `.${name}-`));
  try {
    await build(work);
    fs.writeFileSync(path.join(work, '.complete'), new Date().toISOString());
    fs.renameSync(work, dir);
  } catch (e) {
    fs.rmSync(work, { recursive: true, force: true });
    throw e;
  }
  return dir;
}

/** Bytes of a database file once its WAL is folded in. */
export function databaseBytes(sqlite: Database.Database, file: string): number {
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return fs.statSync(file).size;
}

/**
 * Bytes the catalog takes in a mirror: `catalog_records` with its indexes, the map's rings
 * (`catalog_footprints`), the R*Tree's shadow tables, the seen marks (`mirror_catalog_seen` before
 * `0013`, then `mirror_catalog_seen_marks` and `mirror_catalog_passes`) and
 * the compact layout's shared texts (`catalog_shared`) (dbstat pages).
 */
export function catalogBytes(sqlite: Database.Database): number {
  return catalogBytesByObject(sqlite).reduce((sum, o) => sum + o.bytes, 0);
}

/**
 * `catalogBytes` object by object (each table, index and R*Tree shadow table), largest first,
 * with what its pages hold (payload) beside what they take (page fill).
 */
export function catalogBytesByObject(
  sqlite: Database.Database,
): Array<{ name: string; bytes: number; payload: number }> {
  return sqlite
    .prepare(
      `SELECT name, sum(pgsize) AS bytes, sum(payload) AS payload FROM dbstat WHERE name IN (
         SELECT name FROM sqlite_schema
         WHERE tbl_name IN ('catalog_records', 'catalog_footprints', 'mirror_catalog_seen',
                            'mirror_catalog_seen_marks', 'mirror_catalog_passes',
                            'catalog_shared')
            OR name LIKE 'catalog_rtree%'
            OR name LIKE 'sqlite_autoindex_catalog_%'
            OR name LIKE 'sqlite_autoindex_mirror_catalog_%')
       GROUP BY name ORDER BY bytes DESC`,
    )
    .all() as Array<{ name: string; bytes: number; payload: number }>;
}
