/**
 * The sync's write thread: a long list's batches committed on a connection of their own, in a
 * worker thread, while the engine's thread goes on reading the next pages. On one thread a
 * 5,000-record commit (records, R*Tree, footprints, seen marks: ~70 µs a record) held the event
 * loop for ~0.35 s, and nothing was read meanwhile: at 20 Mbit/s the line stood idle for a
 * third of the sync (`bench/wire.ts`). Here the reading (transport, validation, ids) and the
 * writing use the two cores.
 *
 * Batches are committed in the order handed over, each in the transaction that moves its
 * checkpoint (`batch-commit.ts`), so what a crash or an abort leaves is what one thread leaves:
 * a checkpoint that never passes records not stored. After a failed batch the thread writes
 * nothing more (a later batch would move the checkpoint past the failed one's records): every
 * later batch fails too, and the engine starts another thread for its next sync.
 */
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { startThread } from '@eo/formats/thread';
import type { CommitBatch } from './batch-commit';

/** The thread entry; the desktop's bundle rewrites this name (electron.vite.config.ts). */
const WRITE_THREAD_ENTRY = './write-thread-entry.ts';

/**
 * Batches handed over and not committed yet, at most: one being written and one waiting, so
 * the reading never waits on the writing unless the writing is the slower of the two (and then
 * holds at most two batches of records in memory).
 */
const MAX_HANDED = 2;

/** From the engine to the thread. */
export type WriteThreadRequest =
  | { readonly kind: 'open'; readonly file: string }
  | { readonly kind: 'batch'; readonly id: number; readonly batch: CommitBatch }
  | { readonly kind: 'close' };

/** From the thread: a batch (or the opening, id 0) done or failed. */
export type WriteThreadReply =
  | { readonly id: number; readonly done: true }
  | { readonly id: number; readonly failed: string; readonly code?: string | undefined };

export interface WriteThread {
  /**
   * Hands a batch over: resolves once there is room for another (or at once), and calls
   * `written` when the batch is committed. Rejects with the thread's failure, if any.
   */
  hand(batch: CommitBatch, written: () => void): Promise<void>;
  /** Resolves once every batch handed over is committed; rejects with the first failure. */
  drain(): Promise<void>;
  /** Waits for the batches in flight whatever their outcome (the caller is failing already). */
  settle(): Promise<void>;
  /** Whether a batch failed (or the thread died): it writes nothing more. */
  readonly broken: boolean;
  /** Ends the thread (after the batches in flight) and its connection. */
  close(): Promise<void>;
}

/** The error a failed batch reports, rebuilt with its SQLite code (a full disk is told apart). */
function errorOf(reply: { failed: string; code?: string | undefined }): Error {
  return reply.code
    ? new Database.SqliteError(reply.failed, reply.code)
    : new Error(`the mirror's write thread: ${reply.failed}`);
}

/** Starts a write thread on the mirror database `file` (open and migrated already). */
export function startWriteThread(file: string): WriteThread {
  const worker: Worker = startThread(new URL(WRITE_THREAD_ENTRY, import.meta.url), {
    name: 'mirror-writes',
  });
  const waiting = new Map<number, { resolve(): void; reject(e: Error): void }>();
  let inFlight: Array<Promise<void>> = [];
  let failure: Error | null = null;
  let nextId = 1;
  let exited = false;
  let closing = false;
  const fail = (e: Error) => {
    failure ??= e;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  worker.on('message', (m: WriteThreadReply) => {
    if ('failed' in m) {
      // A batch failed, or the opening (id 0): nothing after it is written.
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      const e = errorOf(m);
      w?.reject(e);
      fail(e);
      return;
    }
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    w?.resolve();
  });
  worker.on('error', (e) => fail(new Error(`the mirror's write thread failed: ${e.message}`)));
  worker.on('exit', (code) => {
    exited = true;
    // Ended before it was asked to: whatever it held, and anything handed over later, fails.
    if (!closing) fail(new Error(`the mirror's write thread ended (exit code ${code})`));
  });
  const post = (m: WriteThreadRequest) => worker.postMessage(m);
  post({ kind: 'open', file });

  return {
    async hand(batch, written) {
      if (failure) throw failure;
      const id = nextId++;
      const done = new Promise<void>((resolve, reject) => waiting.set(id, { resolve, reject }));
      const tracked = done.then(written).finally(() => {
        inFlight = inFlight.filter((p) => p !== tracked);
      });
      // Settled by drain() or settle(); never an unhandled rejection meanwhile.
      tracked.catch(() => undefined);
      inFlight.push(tracked);
      post({ kind: 'batch', id, batch });
      // Committed in order: waiting on the oldest makes room.
      while (inFlight.length >= MAX_HANDED) await inFlight[0];
    },
    async drain() {
      while (inFlight.length > 0) await inFlight[0];
      if (failure) throw failure;
    },
    async settle() {
      await Promise.allSettled([...inFlight]);
    },
    get broken() {
      return failure !== null;
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      closing = true;
      if (exited) return;
      const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      post({ kind: 'close' });
      await ended;
    },
  };
}
