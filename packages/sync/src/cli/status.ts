/**
 * `eo status`: where each resource's sync stands (read from `sync_state`, no network), how
 * many outbox entries are in each state, the stored pictures, the kept archive scenes and the
 * offline rasters (sites taken offline by `eo download`, with their bytes).
 */
import type { ResourceName } from '../mirror/writers';
import { createOutboxStore } from '../outbox/store';
import { makeDriftStore, type DriftSample } from '../pull/drift';
import { RESOURCES } from '../pull/engine';
import { referenceCounts } from '../pull/reference';
import { makeSyncStateStore, type ResourceStatus } from '../pull/state';
import { archiveCounts, archiveLine } from './archive';
import { offlineRasters, rasterTotals, rasterTotalsLine, writeRasterTable } from './download';
import { imageryCounts, imageryLine } from './imagery';
import { EXIT } from './io';
import type { CommandContext, CommandSpec } from './context';
import { isoFromUs, writeJson, writeTable } from './output';
import { referenceLine } from './reference';

/**
 * `complete`: the last pass finished; `incomplete`: it could not know a list whole (fewer
 * distinct records than the service's total, a total that fell, a repeated page: nothing swept;
 * the next sync starts a new pass; `incompleteReason` says which and why); `unfinished`: a pass was
 * interrupted (the next sync resumes it from its checkpoint) or is running in another process;
 * `never`: not synced yet.
 */
export type PassState = 'complete' | 'incomplete' | 'unfinished' | 'never';

export type ResourceView =
  | (ResourceStatus & { readonly state: Exclude<PassState, 'never'> })
  | { readonly resource: ResourceName; readonly state: 'never' };

/** Every resource, in sync order, with the state of its pass. */
export function resourceViews(statuses: readonly ResourceStatus[]): ResourceView[] {
  return RESOURCES.map((resource): ResourceView => {
    const s = statuses.find((x) => x.resource === resource);
    if (!s || s.passId === null) return { resource, state: 'never' };
    const state = s.finishedAtUs === null ? 'unfinished' : s.incomplete ? 'incomplete' : 'complete';
    return { ...s, state };
  });
}

/**
 * Warnings a user must see (stderr): passes that ended short of the service's total, records
 * that differ from the spec, records stored but not indexed.
 */
export function writeSyncWarnings(ctx: CommandContext, views: readonly ResourceView[]): void {
  let drift = 0;
  for (const v of views) {
    if (v.state === 'never') continue;
    drift += v.drift;
    if (v.state === 'incomplete')
      ctx.io.stderr.write(
        v.incompleteReason !== null
          ? `eo: ${v.incompleteReason} (incomplete)\n`
          : `eo: ${v.resource}: the last pass ended with ${v.seen}${v.total === null ? '' : ` of ${v.total}`} records (incomplete): nothing was removed; the next sync starts a new pass\n`,
      );
    if (v.incrementalRejected)
      ctx.io.stderr.write(
        `eo: ${v.resource}: the service refused the change filter (${v.incrementalRejected.status}): synced in full every time\n`,
      );
    if (v.notIndexed > 0)
      ctx.io.stderr.write(
        `eo: ${v.resource}: ${v.notIndexed} records could not be indexed (filters on their unreadable fields never match them)\n`,
      );
  }
  if (drift > 0)
    ctx.io.stderr.write(`eo: ${drift} records differ from the spec: eo status --drift\n`);
}

export function writeResourceTable(ctx: CommandContext, views: readonly ResourceView[]): void {
  writeTable(
    ctx.io.stdout,
    [
      'RESOURCE',
      'STATE',
      'PASS',
      'RECORDS',
      'CHECKPOINT',
      'LAST COMPLETE',
      'REMOVED',
      'DRIFT',
      'NOT INDEXED',
      'LAST ERROR',
    ],
    views.map((v) =>
      v.state === 'never'
        ? [v.resource, v.state]
        : [
            v.resource,
            v.state,
            v.incrementalRejected ? `${v.passMode} (filter refused)` : v.passMode,
            v.total === null ? v.seen : `${v.seen}/${v.total}`,
            v.state === 'unfinished' ? `list ${v.part}, offset ${v.checkpoint}` : '',
            isoFromUs(v.lastCompleteAtUs),
            v.removed,
            v.drift,
            v.notIndexed,
            v.lastError ? `${v.lastError.kind}: ${v.lastError.message}` : '',
          ],
    ),
  );
}

export const statusCommand: CommandSpec = {
  words: ['status'],
  operands: [],
  usage: 'eo status [--drift] [--format json|table]',
  options: ['format', 'drift'],
  run(ctx) {
    const format = ctx.format();
    const db = ctx.database({ create: false });
    const { sqlite } = db;
    const resources = resourceViews(makeSyncStateStore(sqlite).all());
    if (ctx.values.drift) {
      writeDrift(ctx, format, resources, makeDriftStore(sqlite).samples());
      return Promise.resolve(EXIT.ok);
    }
    const outbox = createOutboxStore(sqlite).counts();
    const imagery = imageryCounts(db);
    const reference = referenceCounts(sqlite);
    const archive = archiveCounts(db);
    const rasters = offlineRasters(db);
    const totals = rasterTotals(rasters);
    if (format === 'json') {
      writeJson(ctx.io.stdout, {
        resources,
        outbox,
        imagery,
        archive,
        reference,
        rasters,
        rasterTotals: totals,
      });
    } else {
      writeResourceTable(ctx, resources);
      const counts = Object.entries(outbox)
        .filter(([, n]) => n > 0)
        .map(([state, n]) => `${n} ${state}`);
      ctx.io.stdout.write(`\noutbox: ${counts.length ? counts.join(', ') : 'empty'}\n`);
      ctx.io.stdout.write(imageryLine(imagery));
      ctx.io.stdout.write(archiveLine(archive));
      ctx.io.stdout.write(referenceLine(reference));
      if (rasters.length > 0) {
        ctx.io.stdout.write(`\n${rasterTotalsLine(totals)}`);
        writeRasterTable(ctx, rasters);
      }
    }
    writeSyncWarnings(ctx, resources);
    return Promise.resolve(EXIT.ok);
  },
};

/** `eo status --drift`: per resource, the counts of the current pass and its sample of issues. */
function writeDrift(
  ctx: CommandContext,
  format: 'json' | 'table',
  views: readonly ResourceView[],
  samples: readonly DriftSample[],
): void {
  const rows = views.flatMap((v) =>
    v.state === 'never'
      ? []
      : [
          {
            resource: v.resource,
            drift: v.drift,
            skipped: v.skipped,
            notIndexed: v.notIndexed,
            samples: samples
              .filter((x) => x.resource === v.resource)
              .map(({ resource: _r, ...rest }) => rest),
          },
        ],
  );
  if (format === 'json') return writeJson(ctx.io.stdout, { resources: rows });
  writeTable(
    ctx.io.stdout,
    ['RESOURCE', 'DRIFT', 'SKIPPED', 'NOT INDEXED'],
    rows.map((r) => [r.resource, r.drift, r.skipped, r.notIndexed]),
  );
  for (const r of rows) {
    if (r.samples.length === 0) continue;
    ctx.io.stdout.write(`\n${r.resource} (first ${r.samples.length} issues of the last pass):\n`);
    writeTable(
      ctx.io.stdout,
      ['SOURCE', 'RECORD', 'PATH', 'MESSAGE'],
      r.samples.map((x) => [x.source, x.recordId ?? '', x.path, x.message]),
    );
  }
}
