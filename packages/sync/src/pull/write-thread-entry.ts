/**
 * The write thread's side (`write-thread.ts`): opens its own connection to the mirror and
 * commits each batch it is handed, in order, as the engine's thread would (`batch-commit.ts`).
 * After a failure it writes nothing more: each later batch is answered failed.
 */
import { parentPort } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { openMirrorConnection } from '../db/connection';
import { batchStoresOf, makeBatchCommit, type CommitBatch } from './batch-commit';
import type { WriteThreadReply, WriteThreadRequest } from './write-thread';

const port = parentPort;
if (!port) throw new Error('write-thread-entry runs in a worker thread');

let sqlite: Database.Database | null = null;
let commit: ((batch: CommitBatch) => void) | null = null;
let failed: { failed: string; code?: string | undefined } | null = null;

/**
 * What this connection does differently, since it only commits sync batches (writing 100,000
 * prepared records in batches of 2,000 on one thread: 49.9 -> 41.0 µs a record):
 *
 * - statement journals in memory: an upsert inside a batch's transaction journals the pages it
 *   touches, and in files that was ~7 writes of 8 KB a record, half the writes' CPU in system
 *   time. Not on the engine's connection: there a VACUUM's copy of a mirror of gigabytes would
 *   be built in memory;
 * - a 64 MB page cache: the catalog's indexes are written at random places;
 * - a checkpoint every 10,000 pages of WAL (80 MB) instead of 1,000: each one wrote the
 *   indexes' pages again. The WAL is checkpointed and truncated when the thread ends
 *   (`closeBatches`).
 */
function forBatches(sqlite: Database.Database): void {
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('wal_autocheckpoint = 10000');
}

/**
 * The WAL back to nothing once the sync's batches are in (what it grew to stays on disk
 * otherwise). Without waiting: while a reader is in the middle of a read (an export walking the
 * mirror) it is left as it is, for a later checkpoint, rather than holding the sync's end.
 */
function closeBatches(sqlite: Database.Database): void {
  try {
    sqlite.pragma('busy_timeout = 0');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Best effort: the next checkpoint does it.
  } finally {
    sqlite.close();
  }
}

const failureOf = (e: unknown) => ({
  failed: e instanceof Error ? e.message : String(e),
  code:
    (e as { code?: unknown } | null)?.code === undefined
      ? undefined
      : String((e as { code: unknown }).code),
});

port.on('message', (m: WriteThreadRequest) => {
  let reply: WriteThreadReply;
  if (m.kind === 'close') {
    if (sqlite) closeBatches(sqlite);
    port.close();
    return;
  }
  if (m.kind === 'open') {
    try {
      sqlite = openMirrorConnection(m.file);
      forBatches(sqlite);
      commit = makeBatchCommit(batchStoresOf(sqlite));
      return;
    } catch (e) {
      failed = failureOf(e);
      reply = { id: 0, ...failed };
    }
  } else if (failed || !commit) {
    reply = {
      id: m.id,
      failed: `not written: ${failed?.failed ?? 'no connection'}`,
      code: failed?.code,
    };
  } else {
    try {
      commit(m.batch);
      reply = { id: m.id, done: true };
    } catch (e) {
      failed = failureOf(e);
      reply = { id: m.id, ...failed };
    }
  }
  port.postMessage(reply);
});
