/**
 * One list of a pass paged into the mirror: batches of pages committed with the checkpoint that
 * moves past them (`walkList`), and the records changed since the pass began asked for again
 * where the list can be filtered so (`lookInWindow`).
 */
import { EoApiError, type Page } from '@eo/api-client';
import type { ResourceName } from '../mirror/writers';
import { TotalWatch, type ListReport } from './completeness';
import { idFieldOf, pageDrift, writeDrift, type DriftIssue } from './drift';
import {
  aoisChangedSince,
  catalogChangedSince,
  namesChangeKey,
  orderItemsCreatedSince,
} from './incremental';
import type { PassClock } from './pass-clock';
import type { PageSource, PassContext } from './pass-context';
import type { PassIds } from './pass-ids';
import type { WriteThread } from './write-thread';
import { canonicalItems } from './variants';

/**
 * Most records a batch handed to the write thread holds. A batch is the grain of the two
 * threads' pipeline: smaller ones start the writing sooner and leave less of it after the last
 * page, at a commit's cost each (which the write thread pays, not the reading one). The 20 Mbit/s
 * first sync of 100,000 records (`bench/wire.ts`): 9.4 to 9.5 s with 2,000, 9.7 to 9.9 s with
 * 1,000, 10.1 to 10.3 s with 3,000, 10.3 to 10.6 s with 5,000 (the batch on one thread).
 */
const THREAD_BATCH_RECORDS = 2000;

/** A pass's counters, moved by each commit. */
export interface PassCounters {
  seen: number;
  total: number | null;
}

/** Where a list sits in its pass, and the pass's running state it moves. */
export interface ListWalk {
  readonly resource: ResourceName;
  readonly passId: string;
  readonly part: number;
  /** The offset it starts from (its checkpoint when resumed). */
  readonly from: number;
  readonly ids: PassIds;
  readonly counters: PassCounters;
  readonly clock: PassClock;
  readonly signal: AbortSignal | undefined;
  /** After each commit (progress). */
  readonly onCommit: () => void;
}

/**
 * Pages through one list of a pass from `walk.from`, committing batches with their checkpoint,
 * and reports what it brought (completeness.ts judges it).
 */
export async function walkList(
  ctx: PassContext,
  walk: ListWalk,
  source: PageSource,
): Promise<ListReport> {
  const { inbox, batchRecords, batchMs } = ctx;
  const { resource, passId, part, ids, counters, clock, signal } = walk;
  const field = idFieldOf(resource);
  const seenBefore = counters.seen - walk.from;
  let next = walk.from;
  let buffer: unknown[] = [];
  let drifted: DriftIssue[] = [];
  let lastCommit = Date.now();
  let repeats = 0;
  const totals = new TotalWatch();
  // A long list's batches go to the write thread, chosen at its first page (write-thread.ts).
  let thread = null as WriteThread | null;
  const commit = async (items: unknown[], pageIssues: DriftIssue[], at: number) => {
    counters.seen += items.length;
    counters.total = totals.last === null ? null : seenBefore + totals.last;
    const where = { part, checkpoint: at, seen: counters.seen, total: counters.total };
    if (thread) {
      // Read into rows here, written there: the two threads share the work (write-thread.ts).
      const writer = ctx.writers[resource];
      const records = writer.prepare ? { prepared: writer.prepare(items) } : { items };
      await thread.hand({ resource, passId, records, pageIssues, where }, walk.onCommit);
    } else {
      ctx.commitBatch({ resource, passId, records: { items }, pageIssues, where });
      walk.onCommit();
    }
  };
  let end: Page<unknown>['end'];
  let skipped = false;
  inbox?.take(); // reports from before this list's first page are not about its records
  try {
    try {
      for await (const page of source(next, signal)) {
        if (page.pageIndex === 0) thread = ctx.writeThreadFor(resource, page.total);
        if (inbox) drifted.push(...pageDrift(resource, inbox.take(), page.items, buffer.length));
        clock.saw(page.serverDateMs);
        // Each id under the spelling the pass stores it under; a repeat counts once.
        const c = canonicalItems(resource, field, part, page.items, ids, buffer.length);
        drifted.push(...c.issues);
        repeats += c.repeats;
        buffer.push(...c.items);
        next = page.offset + page.items.length;
        totals.see(page.total);
        end = page.end;
        const batchSize = thread ? Math.min(batchRecords, THREAD_BATCH_RECORDS) : batchRecords;
        if (buffer.length >= batchSize || Date.now() - lastCommit >= batchMs) {
          const batch = buffer;
          const issues = drifted;
          buffer = [];
          drifted = [];
          await commit(batch, issues, next);
          lastCommit = Date.now();
        }
        signal?.throwIfAborted();
      }
    } catch (e) {
      // An AOI deleted since the AOI pass has no assets to page: skip its list.
      if (!(resource === 'assets' && e instanceof EoApiError && e.status === 404)) throw e;
      skipped = true;
    }
    await commit(buffer, drifted, next);
    await thread?.drain();
  } catch (e) {
    // Nothing of this list is written after it returns: the batches in flight end first.
    await thread?.settle();
    throw e;
  } finally {
    // The engine's writers read their counts again: another connection wrote meanwhile.
    if (thread) ctx.reloadWriters();
  }
  return {
    end: skipped ? undefined : end,
    records: next,
    distinct: ids.known(part) ? ids.distinct(part) : null,
    repeats,
    total: skipped ? null : totals.last,
    shrank: totals.shrank,
  };
}

/**
 * Records of list `part` changed since the pass began (catalog `updated`, AOI `updated_at`,
 * order item `created_at`): a record inserted before the page being read is on no page of an
 * offset pass. Written with the pass's stamp and counted as seen. False where the list has no
 * such filter.
 */
export async function lookInWindow(
  ctx: PassContext,
  walk: Pick<ListWalk, 'resource' | 'part' | 'passId' | 'ids' | 'signal'>,
  sinceUs: number,
): Promise<boolean> {
  const { client, driftStore } = ctx;
  const { resource, part, passId, ids, signal } = walk;
  const o = { pageSize: ctx.pageSize, signal, prefetch: false };
  const search = ctx.searches[part]!;
  const pages =
    resource === 'catalogs' && !namesChangeKey(search)
      ? client.pages.catalogs(catalogChangedSince(search, sinceUs), { ...o, itemTexts: true })
      : resource === 'aois'
        ? client.pages.aois(aoisChangedSince(sinceUs), o)
        : resource === 'orderItems'
          ? client.pages.orderItems(orderItemsCreatedSince(sinceUs), o)
          : null;
  if (pages === null) return false;
  const writer = ctx.writers[resource];
  const field = idFieldOf(resource);
  const write = ctx.sqlite.transaction((items: unknown[], issues: DriftIssue[]) => {
    driftStore.sample(resource, passId, [...issues, ...writeDrift(writer.write(items, passId))]);
  });
  for await (const page of pages) {
    const c = canonicalItems(resource, field, part, page.items, ids, 0);
    write(c.items, c.issues);
  }
  return true;
}
