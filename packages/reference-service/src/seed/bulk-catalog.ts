/**
 * Catalog records in bulk, for benchmarks (a first sync of 100,000 records, offline search on a
 * million): the seed generator's scenes as demo catalog records, without asset lists (like the
 * bulk archive), under ids `<prefix>-0000000`, `<prefix>-0000001`, ... Deterministic: the same
 * options give the same records, and the first N of a larger run are those of a smaller one
 * while both fit the same window (`windowFor` in scenes.ts: any two counts up to 4,000,000;
 * above, the window widens by whole years and its scenes are others).
 */
import type Database from 'better-sqlite3';
import { makeCatalogInserter, type CatalogRecordOut } from '../catalog/repository';
import { demoCatalogRecord } from './demo-catalog';
import { generateScenes } from './scenes';

export interface BulkCatalogOptions {
  readonly orgId: string;
  /** The user recorded as creator (`created_by`, `updated_by`). */
  readonly userId: string;
  /** Latest instant a record may claim (µs): delivery dates are capped here. */
  readonly nowUs: number;
  /** Id prefix (default `cat-bulk`). */
  readonly idPrefix?: string;
}

/** `n` catalog records, lazily (a million do not fit comfortably in memory at once). */
export function* generateCatalogRecords(
  n: number,
  opts: BulkCatalogOptions,
): Generator<CatalogRecordOut> {
  const prefix = opts.idPrefix ?? 'cat-bulk';
  let k = 0;
  for (const scene of generateScenes({ count: n, assets: false })) {
    yield demoCatalogRecord(scene, {
      id: `${prefix}-${String(k).padStart(7, '0')}`,
      orgId: opts.orgId,
      userId: opts.userId,
      nowUs: opts.nowUs,
      jitter: (k * 0.618) % 1,
      assets: false,
    });
    k++;
  }
}

/** Records per transaction: large enough that commits cost nothing. */
const BATCH = 20_000;

/**
 * Inserts `n` generated records into the service's catalog (`catalog_records` and its R*Tree)
 * in batched transactions, with a large page cache meanwhile; returns how many went in. The
 * ids must be new (use another `idPrefix` to add more).
 */
export function insertCatalogRecords(
  sqlite: Database.Database,
  n: number,
  opts: BulkCatalogOptions & { readonly onProgress?: (inserted: number) => void },
): number {
  const insert = makeCatalogInserter(sqlite);
  const records = generateCatalogRecords(n, opts);
  const links = { orgId: opts.orgId, orderId: null, orderItemId: null };
  let inserted = 0;
  const batch = sqlite.transaction((limit: number): boolean => {
    for (let i = 0; i < limit; i++) {
      const next = records.next();
      if (next.done) return false;
      insert(next.value, links);
      inserted++;
    }
    return true;
  });
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma('cache_size = -500000');
  try {
    while (batch(BATCH)) opts.onProgress?.(inserted);
  } finally {
    sqlite.pragma(`cache_size = ${cacheSize}`);
  }
  opts.onProgress?.(inserted);
  return inserted;
}
