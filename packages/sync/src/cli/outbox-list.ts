/** `eo outbox list [--state S,...]`: the queued creates, in queue order. */
import { OUTBOX_STATES, type OutboxState } from '../outbox/index';
import { createOutboxStore } from '../outbox/store';
import { listFlag, UsageError } from './args';
import type { CommandSpec } from './context';
import { EXIT } from './io';
import { writeEntries } from './outbox-view';

function parseStates(value: string | undefined): OutboxState[] | undefined {
  if (value === undefined) return undefined;
  const states = listFlag(value);
  const unknown = states.filter((s) => !(OUTBOX_STATES as readonly string[]).includes(s));
  if (states.length === 0 || unknown.length > 0)
    throw new UsageError(
      `--state: ${unknown.length ? `unknown ${unknown.join(', ')}` : 'empty'} (states: ${OUTBOX_STATES.join(', ')})`,
    );
  return states as OutboxState[];
}

export const outboxListCommand: CommandSpec = {
  words: ['outbox', 'list'],
  operands: [],
  usage: 'eo outbox list [--state STATE,...] [--format json|table]',
  options: ['format', 'state'],
  run(ctx) {
    const states = parseStates(ctx.values.state);
    ctx.format();
    const { sqlite } = ctx.database({ create: false });
    writeEntries(ctx, createOutboxStore(sqlite).list(states));
    return Promise.resolve(EXIT.ok);
  },
};
