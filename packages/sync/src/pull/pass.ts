/**
 * One resource's pass: begun (full or incremental) or resumed where it was interrupted, each of
 * its lists walked (`list-walk.ts`), spelling variants merged (`variants.ts`), the lists of a
 * full pass completed by asking for what they skipped (`still-listed.ts`), then swept and
 * finished, or finished incomplete when a list is not known whole (nothing is swept then).
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@eo/api-client';
import type { ResourceName } from '../mirror/writers';
import { incompleteMessage, listProblem, missingOnly, type ListReport } from './completeness';
import { aoisChangedSince, catalogChangedSince } from './incremental';
import { lookInWindow, walkList, type PassCounters } from './list-walk';
import { PassClock } from './pass-clock';
import { planOf, type PageSource, type PassContext, type SyncProgress } from './pass-context';
import { PassIds } from './pass-ids';
import { keepStillListed } from './still-listed';
import { mergeVariants } from './variants';

export type OnProgress = ((p: SyncProgress) => void) | undefined;

/** An interrupted pass under the same plan: the next sync goes on with it. */
export function resumable(ctx: PassContext, resource: ResourceName): boolean {
  const state = ctx.states.get(resource);
  return (
    state !== undefined &&
    state.passId !== null &&
    state.finishedAtUs === null &&
    state.plan === planOf(ctx, resource)
  );
}

/** The lists a resource's pass pages through, in a stable order. */
function partsOf(ctx: PassContext, resource: ResourceName, since: number | null): PageSource[] {
  const { client, pageSize, prefetch } = ctx;
  const o = (signal: AbortSignal | undefined) => ({ pageSize, signal, prefetch });
  switch (resource) {
    case 'orders':
      return [(offset, s) => client.pages.orders({ offset }, o(s))];
    case 'orderItems':
      return [(offset, s) => client.pages.orderItems({ offset }, o(s))];
    case 'aois':
      return [(offset, s) => client.pages.aois({ ...aoisChangedSince(since), offset }, o(s))];
    case 'indices':
      return [(offset, s) => client.pages.indices({ offset }, o(s))];
    case 'catalogs':
      // Their texts as the pages carried them: the mirror stores each record as its text.
      return ctx.searches.map(
        (search) => (offset, s) =>
          client.pages.catalogs(
            { ...catalogChangedSince(search, since), offset },
            { ...o(s), itemTexts: true },
          ),
      );
    case 'assets':
      return ctx.aoiIds().map(
        ({ aoi_id }) =>
          (offset, s) =>
            assetsOf(aoi_id, client.pages.aoiAssets(aoi_id, { offset }, o(s))),
      );
  }
}

/**
 * A new pass: none to resume, or the one interrupted paged other searches. Full or incremental
 * is decided now and kept if it is interrupted (a changed plan is full, and so is the pass after
 * a full one that ended incomplete: its deletions are still to sweep).
 */
function beginPass(ctx: PassContext, resource: ResourceName, full: boolean): void {
  const { states, nowUs } = ctx;
  const plan = planOf(ctx, resource);
  const previous = states.get(resource);
  const planChanged = previous !== undefined && previous.plan !== plan;
  const redo = previous?.incomplete === true && previous.passMode === 'full';
  ctx.incremental.begin(resource, {
    full: full || planChanged || redo,
    nowUs: nowUs(),
    catalog: ctx.searches,
  });
  states.start(resource, randomUUID(), plan, nowUs());
  ctx.driftStore.clear(resource);
}

export async function runPass(
  ctx: PassContext,
  resource: ResourceName,
  signal: AbortSignal | undefined,
  onProgress: OnProgress,
  full: boolean,
): Promise<void> {
  const { states, driftStore, nowUs } = ctx;
  if (!resumable(ctx, resource)) beginPass(ctx, resource, full);
  const state = states.get(resource)!;
  const passId = state.passId!;
  const since = ctx.incremental.since(resource);
  const parts = partsOf(ctx, resource, since);
  const counters: PassCounters = { seen: state.seen, total: state.total };
  const progress = (part: number, done: boolean) =>
    onProgress?.({ resource, ...counters, part, parts: parts.length, done });
  const ids = new PassIds();
  const clock = new PassClock(state.startedAtUs, nowUs);
  // Lists an earlier run of this pass could not know whole: they keep it incomplete.
  const earlier = driftStore.notes(resource, passId).length > 0;
  const reports = new Map<number, ListReport>();
  const aoiOf = resource === 'assets' ? ctx.aoiIds() : [];
  const noteIncomplete = (part: number, problem: string) =>
    driftStore.note(resource, passId, incompleteMessage(resource, part, parts.length, problem));

  for (let part = state.part; part < parts.length; part++) {
    const from = part === state.part ? state.checkpoint : 0;
    if (from > 0) {
      // A list resumed from its checkpoint: the ids it brought before count as seen.
      const scope = { part, parts: parts.length, aoiId: aoiOf[part]?.aoi_id };
      const seeds = ctx.seedsOf(resource, passId, scope);
      ids.seed(part, seeds.ids, seeds.exact);
    }
    const walk = { resource, passId, part, from, ids, counters, clock, signal };
    const report = await walkList(
      ctx,
      { ...walk, onCommit: () => progress(part, false) },
      parts[part]!,
    );
    let problem = listProblem(report);
    if (problem !== null && missingOnly(report)) {
      // Records inserted before the page being read are on no page: ask for what changed
      // since the pass began, where the list can be asked so.
      if (await lookInWindow(ctx, walk, clock.windowStartUs()))
        problem = listProblem(recount(report, ids, part));
    }
    reports.set(part, report);
    if (problem !== null) noteIncomplete(part, problem);
    // The list is done: the checkpoint moves to the start of the next one.
    if (part + 1 < parts.length)
      states.checkpoint(resource, { part: part + 1, checkpoint: 0, ...counters });
    progress(part, false);
  }
  // One row per record whatever the spelling of its id (variants.ts).
  mergeVariants(ctx, resource, passId, ids, since === null);
  if (since === null && !earlier) {
    // Before a sweep, and to complete lists whose pages skipped records: the records the pass
    // did not see, asked by id where the service can be asked so; then each list judged again.
    let missing = 0;
    for (const [part, r] of reports) if (missingOnly(r)) missing += r.total! - ids.distinct(part);
    await keepStillListed(ctx, resource, passId, ids, missing, signal);
    driftStore.dropNotes(resource, passId);
    for (const [part, r] of reports) {
      const problem = listProblem(recount(r, ids, part));
      if (problem !== null) noteIncomplete(part, problem);
    }
  }
  finishPass(ctx, resource, passId, since, clock);
  progress(parts.length, true);
}

/**
 * A list not known whole (this run's or an earlier run's of the same pass): what the pass did
 * not see may still be listed, so nothing is swept; the pass is over (incomplete) and the next
 * sync starts a new one. Otherwise a full pass sweeps what it did not see; an incremental one saw
 * only what changed and sweeps nothing (deletions wait for a full pass).
 */
function finishPass(
  ctx: PassContext,
  resource: ResourceName,
  passId: string,
  since: number | null,
  clock: PassClock,
): void {
  const { states, nowUs } = ctx;
  if (ctx.driftStore.notes(resource, passId).length > 0) {
    states.finishIncomplete(resource, nowUs());
    return;
  }
  ctx.sqlite.transaction(() => {
    const removed = since === null ? ctx.writers[resource].sweep(passId) : 0;
    const now = nowUs();
    states.finish(resource, removed, now);
    ctx.incremental.completed(resource, passId, now, clock.startUs());
  })();
}

/** A list's report with the distinct ids its checks have added since. */
function recount(r: ListReport, ids: PassIds, part: number): ListReport {
  return r.distinct === null ? r : { ...r, distinct: ids.distinct(part) };
}

/** An AOI's assets, each carrying its AOI id (the list is per AOI; a record may omit it). */
async function* assetsOf(
  aoiId: string,
  pages: AsyncIterable<Page<unknown>>,
): AsyncIterable<Page<unknown>> {
  for await (const page of pages) {
    yield {
      ...page,
      items: page.items.map((a) =>
        typeof a === 'object' && a !== null && !('aoi_id' in a && a.aoi_id)
          ? { ...a, aoi_id: aoiId }
          : a,
      ),
    };
  }
}
