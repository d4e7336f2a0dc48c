/** Outbox entries on stdout: as stored (JSON), or one row each (table). */
import type { OutboxEntry } from '../outbox/index';
import type { CommandContext } from './context';
import { isoFromUs, writeJson, writeTable } from './output';

/** What was sent, in one short line: the input as JSON, cut at `max` characters. */
export function inputSummary(entry: OutboxEntry, max = 60): string {
  const text = JSON.stringify(entry.input);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function writeEntries(ctx: CommandContext, entries: readonly OutboxEntry[]): void {
  if (ctx.format() === 'json') {
    writeJson(ctx.io.stdout, entries);
    return;
  }
  // SENT AT: when an attempt in doubt left (unconfirmed entries: what the user checks against).
  writeTable(
    ctx.io.stdout,
    ['ID', 'KIND', 'STATE', 'ATTEMPTS', 'REMOTE ID', 'UPDATED', 'SENT AT', 'INPUT', 'LAST ERROR'],
    entries.map((e) => [
      e.id,
      e.kind,
      e.state,
      e.attempts,
      e.remoteId,
      isoFromUs(e.updatedAt),
      e.lastError?.attemptedAt === undefined ? '' : isoFromUs(e.lastError.attemptedAt),
      e.state === 'unconfirmed' ? inputSummary(e) : '',
      e.lastError ? e.lastError.message : '',
    ]),
  );
  const waiting = entries.filter((e) => e.state === 'unconfirmed').length;
  if (waiting > 0) {
    ctx.io.stderr.write(
      `${waiting} unconfirmed: may already be on the service; check it, then eo outbox confirm <id> [--remote-id ID], eo outbox resend <id> or eo outbox cancel <id>\n`,
    );
  }
}

/** One entry: the object itself in JSON (not a one-element list), a one-row table otherwise. */
export function writeEntry(ctx: CommandContext, entry: OutboxEntry): void {
  if (ctx.format() === 'json') writeJson(ctx.io.stdout, entry);
  else writeEntries(ctx, [entry]);
}
