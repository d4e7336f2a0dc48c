/**
 * `eo outbox add <kind> (--json INPUT | --file FILE)`: queues a create, checked against the
 * domain request schema first, and the service profile's own rules (--dialect / EO_DIALECT:
 * `provider-v0` wants `usecase` on order items) (field-level errors, nothing queued, exit code
 * 2). Works offline.
 * A project, bandset, satellite or workflow id the mirrored lists do not know is queued with a
 * warning naming the nearest known ones (cli/reference.ts).
 */
import { createOutbox, OUTBOX_KINDS, type OutboxKind } from '../outbox/index';
import { UsageError } from './args';
import { dialectOf, type CommandSpec } from './context';
import { EXIT } from './io';
import { writeEntry } from './outbox-view';
import { jsonInput } from './json-input';
import { unknownReferences, writeUnknownReferences } from './reference';

export const outboxAddCommand: CommandSpec = {
  words: ['outbox', 'add'],
  operands: ['kind'],
  usage: `eo outbox add <${OUTBOX_KINDS.join('|')}> (--json INPUT | --file FILE) [--format json|table]`,
  options: ['format', 'json', 'file'],
  async run(ctx) {
    const kind = ctx.operands[0]!;
    if (!(OUTBOX_KINDS as readonly string[]).includes(kind))
      throw new UsageError(
        `unknown kind ${JSON.stringify(kind)} (kinds: ${OUTBOX_KINDS.join(', ')})`,
      );
    const input = await jsonInput(ctx.io, ctx.values);
    if (input === undefined) throw new UsageError('give the input with --json or --file');
    ctx.format();
    const { sqlite } = ctx.database({ create: true });
    // The profile the entry is for (--dialect / EO_DIALECT): its rules are checked now too.
    const outbox = createOutbox({ db: sqlite, dialect: dialectOf(ctx.values, ctx.io) });
    const entry = outbox.enqueue(kind as OutboxKind, input as never);
    // After the schema passed (a refused input has worse problems): ids the mirror does not know.
    const others = () => outbox.list().filter((e) => e.id !== entry.id);
    writeUnknownReferences(ctx, unknownReferences(sqlite, entry.kind, entry.input, others));
    writeEntry(ctx, entry);
    return EXIT.ok;
  },
};
