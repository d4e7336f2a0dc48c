/**
 * `eo status`: where each resource's sync stands (read from `sync_state`, no network) and how
 * many outbox entries are in each state.
 */
import type { ResourceName } from '../mirror/writers';
import { createOutboxStore } from '../outbox/store';
import { RESOURCES } from '../pull/engine';
import { makeSyncStateStore, type ResourceStatus } from '../pull/state';
import { EXIT } from './io';
import type { CommandContext, CommandSpec } from './context';
import { isoFromUs, writeJson, writeTable } from './output';

/**
 * `complete`: the last pass finished; `unfinished`: a pass was interrupted (the next sync
 * resumes it from its checkpoint) or is running in another process; `never`: not synced yet.
 */
export type PassState = 'complete' | 'unfinished' | 'never';

export type ResourceView =
  | (ResourceStatus & { readonly state: Exclude<PassState, 'never'> })
  | { readonly resource: ResourceName; readonly state: 'never' };

/** Every resource, in sync order, with the state of its pass. */
export function resourceViews(statuses: readonly ResourceStatus[]): ResourceView[] {
  return RESOURCES.map((resource): ResourceView => {
    const s = statuses.find((x) => x.resource === resource);
    if (!s || s.passId === null) return { resource, state: 'never' };
    return { ...s, state: s.finishedAtUs === null ? 'unfinished' : 'complete' };
  });
}

export function writeResourceTable(ctx: CommandContext, views: readonly ResourceView[]): void {
  writeTable(
    ctx.io.stdout,
    ['RESOURCE', 'STATE', 'RECORDS', 'CHECKPOINT', 'LAST COMPLETE', 'REMOVED', 'LAST ERROR'],
    views.map((v) =>
      v.state === 'never'
        ? [v.resource, v.state]
        : [
            v.resource,
            v.state,
            v.total === null ? v.seen : `${v.seen}/${v.total}`,
            v.state === 'unfinished' ? `list ${v.part}, offset ${v.checkpoint}` : '',
            isoFromUs(v.lastCompleteAtUs),
            v.removed,
            v.lastError ? `${v.lastError.kind}: ${v.lastError.message}` : '',
          ],
    ),
  );
}

export const statusCommand: CommandSpec = {
  words: ['status'],
  operands: [],
  usage: 'eo status [--format json|table]',
  options: ['format'],
  run(ctx) {
    const format = ctx.format();
    const { sqlite } = ctx.database({ create: false });
    const resources = resourceViews(makeSyncStateStore(sqlite).all());
    const outbox = createOutboxStore(sqlite).counts();
    if (format === 'json') {
      writeJson(ctx.io.stdout, { resources, outbox });
    } else {
      writeResourceTable(ctx, resources);
      const counts = Object.entries(outbox)
        .filter(([, n]) => n > 0)
        .map(([state, n]) => `${n} ${state}`);
      ctx.io.stdout.write(`\noutbox: ${counts.length ? counts.join(', ') : 'empty'}\n`);
    }
    return Promise.resolve(EXIT.ok);
  },
};
