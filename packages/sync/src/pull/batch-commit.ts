/**
 * One batch of a list's pages committed: its records written, its drift sampled and the list's
 * checkpoint moved past it, in one transaction (so a checkpoint never passes records that were
 * not stored). The same code runs on the engine's connection and in the write thread
 * (`write-thread.ts`), whichever the list's size chose.
 */
import type Database from 'better-sqlite3';
import { makeMirrorWriters, type PreparedRecord, type ResourceName } from '../mirror/writers';
import { driftCounts, makeDriftStore, writeDrift, type DriftIssue } from './drift';
import { makeSyncStateStore } from './state';

/** Where a list's checkpoint moves once a batch is in. */
export interface ListCheckpoint {
  readonly part: number;
  /** The offset of the list's next record. */
  readonly checkpoint: number;
  /** Records the pass has received, this batch included. */
  readonly seen: number;
  readonly total: number | null;
}

export interface CommitBatch {
  readonly resource: ResourceName;
  readonly passId: string;
  /** The records as received, or made ready to write by the writer's `prepare`. */
  readonly records:
    { readonly items: readonly unknown[] } | { readonly prepared: readonly PreparedRecord[] };
  /** What the pages said about these records (drift reports, spelling variants). */
  readonly pageIssues: readonly DriftIssue[];
  readonly where: ListCheckpoint;
}

export interface BatchStores {
  readonly sqlite: Database.Database;
  readonly writers: ReturnType<typeof makeMirrorWriters>;
  readonly driftStore: ReturnType<typeof makeDriftStore>;
  readonly states: ReturnType<typeof makeSyncStateStore>;
}

/** The stores a batch commit needs on a connection of its own (the write thread's). */
export function batchStoresOf(sqlite: Database.Database): BatchStores {
  return {
    sqlite,
    writers: makeMirrorWriters(sqlite),
    driftStore: makeDriftStore(sqlite),
    states: makeSyncStateStore(sqlite),
  };
}

/**
 * The batch's transaction. Writers never throw for a record's content: what they could not
 * index or store is drift, counted in the transaction that moves the checkpoint past it.
 */
export function makeBatchCommit(stores: BatchStores): (batch: CommitBatch) => void {
  const { sqlite, writers, driftStore, states } = stores;
  return sqlite.transaction((b: CommitBatch) => {
    const writer = writers[b.resource];
    const written =
      'prepared' in b.records
        ? writer.writePrepared!(b.records.prepared, b.passId)
        : writer.write(b.records.items, b.passId);
    const issues = [...b.pageIssues, ...writeDrift(written)];
    driftStore.sample(b.resource, b.passId, issues);
    states.checkpoint(b.resource, b.where, driftCounts(issues));
  });
}
