/**
 * `eo outbox flush`: sends what is queued and due, dependencies first, each create exactly once
 * (its entry id is the Idempotency-Key); successes go into the mirror at once. A create in doubt
 * is resent only to a service that honours the key (`--idempotency` / `EO_IDEMPOTENCY`
 * overrides what the service says), otherwise looked for, else left `unconfirmed`. Exit code 1
 * when anything failed, was blocked, is unconfirmed or is still queued afterwards (e.g. the
 * service is unreachable, or a transient failure waits for its next attempt).
 */
import { IdempotencyPolicy, IDEMPOTENCY_POLICIES } from '@eo/domain';
import { makeOutboxMirror } from '../mirror/outbox-mirror';
import { createOutbox, type OutboxEntry } from '../outbox/index';
import { UsageError } from './args';
import type { CommandContext, CommandSpec } from './context';
import { EXIT } from './io';
import { writeJson, writeTable } from './output';
import { flushProgress, progressMode } from './progress';
import { heldOrders, parseConfirmations } from './order-quotes';

function problemLine(e: OutboxEntry): string {
  const err = e.lastError;
  const status = err?.status === undefined ? '' : ` ${err.status}`;
  const why = err ? `${err.kind}${status}: ${err.message}` : 'not attempted yet';
  const details = (err?.details ?? []).map((d) => `\n    ${d.path || '(root)'}: ${d.message}`);
  const next =
    e.state === 'unconfirmed'
      ? `\n    check the service, then: eo outbox confirm ${e.id} [--remote-id ID] | eo outbox resend ${e.id} | eo outbox cancel ${e.id}`
      : '';
  return `  ${e.state} ${e.kind} ${e.id}: ${why}${details.join('')}${next}\n`;
}

/** `--idempotency` or `EO_IDEMPOTENCY`; default `auto` (honoured only when the service says so). */
function idempotencyPolicy(ctx: CommandContext): IdempotencyPolicy {
  const given = ctx.values.idempotency ?? ctx.io.env.EO_IDEMPOTENCY ?? 'auto';
  const parsed = IdempotencyPolicy.safeParse(given);
  if (!parsed.success)
    throw new UsageError(
      `--idempotency (or EO_IDEMPOTENCY) must be ${IDEMPOTENCY_POLICIES.join(', ')}, got ${JSON.stringify(given)}`,
    );
  return parsed.data;
}

export const outboxFlushCommand: CommandSpec = {
  words: ['outbox', 'flush'],
  operands: [],
  usage:
    'eo outbox flush [--idempotency auto|honoured|ignored] [--confirm-orders ID=TOTAL,...] [--progress auto|lines|off] [--format json|table]',
  options: ['format', 'progress', 'idempotency', 'confirm-orders'],
  async run(ctx) {
    const { io } = ctx;
    const format = ctx.format();
    const idempotency = idempotencyPolicy(ctx);
    const progress = flushProgress(io.stderr, progressMode(ctx.values.progress, io.stderr));
    const client = ctx.client();
    // One sender at a time: the desktop app, browser mode or another flush holding this
    // mirror could send the same entries (db/mirror-lock.ts).
    const { sqlite } = ctx.database({ create: false, hold: 'eo outbox flush' });
    const outbox = createOutbox({
      db: sqlite,
      client,
      mirror: makeOutboxMirror(sqlite),
      idempotency,
    });
    // Orders another laptop handed over go only once a person here confirmed their price now.
    const confirmations = parseConfirmations(ctx.values['confirm-orders']);
    const holdIds = await heldOrders(outbox, client, confirmations, io.signal);
    const startedUs = Date.now() * 1000;
    let result;
    try {
      result = await outbox.flush({
        signal: io.signal,
        onProgress: (p) => progress.update(p),
        holdIds,
      });
    } finally {
      progress.end();
    }
    if (holdIds.length > 0)
      io.stderr.write(
        `eo outbox flush: ${holdIds.length} orders from another laptop wait for your confirmation at today's price: eo outbox quote, then eo outbox flush --confirm-orders ID=TOTAL,...\n`,
      );
    // What this flush left failed, blocked, unconfirmed or waiting, with the service's reasons.
    const touched = outbox
      .list({ states: ['failed', 'blocked', 'unconfirmed', 'queued'] })
      .filter((e) => !holdIds.includes(e.id))
      .filter((e) => e.state === 'queued' || e.updatedAt >= startedUs);
    if (format === 'json') {
      writeJson(io.stdout, { ...result, problems: touched });
    } else {
      writeTable(
        io.stdout,
        ['SENT', 'FAILED', 'BLOCKED', 'UNCONFIRMED', 'REMAINING'],
        [[result.sent, result.failed, result.blocked, result.unconfirmed, result.remaining]],
      );
    }
    if (touched.length > 0) {
      io.stderr.write(`eo outbox flush: ${touched.length} not sent:\n`);
      for (const e of touched) io.stderr.write(problemLine(e));
    }
    const clean =
      result.failed === 0 &&
      result.blocked === 0 &&
      result.unconfirmed === 0 &&
      result.remaining === 0;
    return clean ? EXIT.ok : EXIT.failed;
  },
};
