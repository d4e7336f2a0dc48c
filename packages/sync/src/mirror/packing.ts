/**
 * Packing the catalog records a sync stored as their text (`@eo/catalog-store`,
 * `compact/packing.ts`), in the background: small batches, each its own transaction, with the
 * event loop free between them, so reads and searches keep answering while it runs. A run
 * stops at the first batch boundary after its signal aborts (a sync starts, the app closes);
 * what is left waits for the next run, and a run killed mid-batch loses nothing (the batch
 * rolls back, its rows still stored as text and listed).
 */
import { makeCatalogPacker, type PackingProgress } from '@eo/catalog-store';
import type Database from 'better-sqlite3';

/**
 * Records per transaction: ~80 µs each, so a batch holds the event loop ~20 ms on the dev
 * machine (a search or a screen's call waits at most that long behind it).
 */
export const PACK_BATCH = 250;

export interface PackRecordsOptions {
  /** Stops at the next batch boundary. */
  readonly signal?: AbortSignal | undefined;
  readonly batch?: number | undefined;
  /** After each committed batch. */
  readonly onProgress?: ((p: PackingProgress) => void) | undefined;
}

/**
 * Gives the file's free pages back to the disk (a mirror with incremental auto-vacuum: every
 * one made since `0014`; a no-op on older files, whose free pages the next sync reuses).
 */
export function givePagesBack(sqlite: Database.Database): void {
  sqlite.pragma('incremental_vacuum');
}

export function makeRecordPacking(sqlite: Database.Database, busy: () => boolean) {
  const packer = makeCatalogPacker(sqlite);
  const batch = sqlite.transaction((n: number) => packer.next(n));
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  let running: Promise<PackingProgress> | null = null;

  async function run(opts: PackRecordsOptions): Promise<PackingProgress> {
    let packed = 0;
    let left = packer.left();
    while (left > 0 && !opts.signal?.aborted && sqlite.open && !busy()) {
      const p = batch(opts.batch ?? PACK_BATCH);
      // The batch's texts took ~10x the pages its packed rows take: back to the disk.
      givePagesBack(sqlite);
      packed += p.packed;
      left = p.left;
      opts.onProgress?.({ packed, left });
      await nextTurn();
    }
    return { packed, left: sqlite.open ? packer.left() : left };
  }

  return {
    /** Rows still stored as their text. */
    left: () => packer.left(),
    /**
     * Packs what is stored as text until none is left, `signal` aborts, or a sync starts
     * (`busy`). One run at a time: a second call while one runs gets that run's result.
     */
    pack(opts: PackRecordsOptions = {}): Promise<PackingProgress> {
      running ??= run(opts).finally(() => {
        running = null;
      });
      return running;
    },
  };
}
