/**
 * What a resource's pass works with: the client, the mirror's writers and sync state, the drift
 * store, the catalog searches and the paging settings. Built once per engine (`engine.ts`) and
 * passed to each step of a pass (`pass.ts`, `list-walk.ts`, `variants.ts`, `still-listed.ts`).
 */
import type { BodyInput, EoClient, Page } from '@eo/api-client';
import type Database from 'better-sqlite3';
import type { MirrorWriter, ResourceName } from '../mirror/writers';
import type { CommitBatch } from './batch-commit';
import type { DriftInbox, makeDriftStore } from './drift';
import type { Incremental } from './incremental';
import type { makePassIdSeeds } from './pass-ids';
import type { makeSyncStateStore } from './state';
import type { ByIdCheck } from './still-listed';
import type { WriteThread } from './write-thread';

export interface SyncProgress {
  readonly resource: ResourceName;
  /** Records received by this pass so far (committed; skipped ones included). */
  readonly seen: number;
  /** The service's total, when known. */
  readonly total: number | null;
  /** The list being paged (catalog search, AOI) and how many there are. */
  readonly part: number;
  readonly parts: number;
  readonly done: boolean;
}

/** A catalog search a pass pages through: filters and sort (paging is the engine's). */
export type CatalogSearch = Omit<BodyInput<'searchCatalogs'>, 'limit' | 'offset'>;

/** One list of a pass, paged from an offset. */
export type PageSource = (
  offset: number,
  signal: AbortSignal | undefined,
) => AsyncIterable<Page<unknown>>;

export interface PassContext {
  readonly sqlite: Database.Database;
  readonly client: EoClient;
  /** Made again by `reloadWriters` (they keep counts read when made). */
  writers: Record<ResourceName, MirrorWriter>;
  /** A batch committed on this connection (`batch-commit.ts`). */
  commitBatch: (batch: CommitBatch) => void;
  /**
   * The write thread a list of `total` records commits from, or null when it commits on this
   * connection (a short list, or the engine told not to: `writeThreadFrom`).
   */
  readonly writeThreadFor: (
    resource: ResourceName,
    total: number | undefined,
  ) => WriteThread | null;
  /** After another connection wrote (the write thread): the writers read their counts again. */
  readonly reloadWriters: () => void;
  readonly states: ReturnType<typeof makeSyncStateStore>;
  readonly driftStore: ReturnType<typeof makeDriftStore>;
  /** Where the client's schema drift reports arrive, when the client was built with one. */
  readonly inbox: DriftInbox | undefined;
  readonly searches: readonly CatalogSearch[];
  readonly incremental: Incremental;
  readonly byId: Partial<Record<ResourceName, ByIdCheck>>;
  readonly seedsOf: ReturnType<typeof makePassIdSeeds>;
  /** The mirror's AOI ids, in order: the assets pass has one list per AOI. */
  readonly aoiIds: () => Array<{ aoi_id: string }>;
  readonly pageSize: number;
  readonly batchRecords: number;
  readonly batchMs: number;
  readonly prefetch: boolean | number;
  /** Clock (µs), for the timestamps of sync_state. */
  readonly nowUs: () => number;
}

/** What a resource's pass pages through: the catalog searches; nothing for the others. */
export const planOf = (ctx: PassContext, resource: ResourceName): string =>
  resource === 'catalogs' ? JSON.stringify(ctx.searches) : '';

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
