/**
 * `eo outbox retry <id>` and `eo outbox cancel <id>`: the user's decisions about one entry
 * (see the outbox state table in README.md). Offline; a state that does not allow it exits 1.
 */
import { createOutbox, type Outbox, type OutboxEntry } from '../outbox/index';
import { OFFLINE_CLIENT, type CommandSpec } from './context';
import { EXIT } from './io';
import { writeEntry } from './outbox-view';

function entryCommand(
  word: 'retry' | 'cancel',
  act: (outbox: Outbox, id: string) => OutboxEntry,
): CommandSpec {
  return {
    words: ['outbox', word],
    operands: ['id'],
    usage: `eo outbox ${word} <id> [--format json|table]`,
    options: ['format'],
    run(ctx) {
      ctx.format();
      const { sqlite } = ctx.database({ create: false });
      const outbox = createOutbox({ db: sqlite, client: OFFLINE_CLIENT });
      writeEntry(ctx, act(outbox, ctx.operands[0]!));
      return Promise.resolve(EXIT.ok);
    },
  };
}

export const outboxRetryCommand = entryCommand('retry', (o, id) => o.retry(id));
export const outboxCancelCommand = entryCommand('cancel', (o, id) => o.cancel(id));
