/** Outbox entries on stdout: as stored (JSON), or one row each (table). */
import type { OutboxEntry } from '../outbox/index';
import type { CommandContext } from './context';
import { isoFromUs, writeJson, writeTable } from './output';

export function writeEntries(ctx: CommandContext, entries: readonly OutboxEntry[]): void {
  if (ctx.format() === 'json') {
    writeJson(ctx.io.stdout, entries);
    return;
  }
  writeTable(
    ctx.io.stdout,
    ['ID', 'KIND', 'STATE', 'ATTEMPTS', 'REMOTE ID', 'UPDATED', 'LAST ERROR'],
    entries.map((e) => [
      e.id,
      e.kind,
      e.state,
      e.attempts,
      e.remoteId,
      isoFromUs(e.updatedAt),
      e.lastError ? e.lastError.message : '',
    ]),
  );
}

/** One entry: the object itself in JSON (not a one-element list), a one-row table otherwise. */
export function writeEntry(ctx: CommandContext, entry: OutboxEntry): void {
  if (ctx.format() === 'json') writeJson(ctx.io.stdout, entry);
  else writeEntries(ctx, [entry]);
}
