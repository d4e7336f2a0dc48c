/**
 * The user's decisions about one entry (see the outbox state table in README.md): `retry` and
 * `cancel`, and for an `unconfirmed` entry (it may already be on the service) `confirm` ("it
 * was created": `--remote-id`, or the candidate its answer suggested) and `resend` ("send it
 * again"), and `take-back` for work handed over to a laptop that never got it. Offline; a
 * state that does not allow it exits 1.
 */
import { createOutbox, type Outbox, type OutboxEntry } from '../outbox/index';
import type { OptionName } from './args';
import type { CommandContext, CommandSpec } from './context';
import { EXIT } from './io';
import { writeEntry } from './outbox-view';

function entryCommand(
  word: 'retry' | 'cancel' | 'confirm' | 'resend' | 'take-back',
  act: (outbox: Outbox, id: string, ctx: CommandContext) => OutboxEntry,
  extra: { usage: string; options: readonly OptionName[] } = { usage: '', options: [] },
): CommandSpec {
  return {
    words: ['outbox', word],
    operands: ['id'],
    usage: `eo outbox ${word} <id>${extra.usage} [--format json|table]`,
    options: ['format', ...extra.options],
    run(ctx) {
      ctx.format();
      const { sqlite } = ctx.database({ create: false });
      const outbox = createOutbox({ db: sqlite });
      writeEntry(ctx, act(outbox, ctx.operands[0]!, ctx));
      return Promise.resolve(EXIT.ok);
    },
  };
}

export const outboxRetryCommand = entryCommand('retry', (o, id) => o.retry(id));
export const outboxCancelCommand = entryCommand('cancel', (o, id) => o.cancel(id));
export const outboxConfirmCommand = entryCommand(
  'confirm',
  (o, id, ctx) => o.confirm(id, ctx.values['remote-id']),
  { usage: ' [--remote-id ID]', options: ['remote-id'] },
);
export const outboxResendCommand = entryCommand('resend', (o, id) => o.resend(id));
/** A handed-over entry back to this laptop's queue: the other laptop never had it. */
export const outboxTakeBackCommand = entryCommand('take-back', (o, id) => o.takeBack(id));
