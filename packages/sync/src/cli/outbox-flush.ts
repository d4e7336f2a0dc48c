/**
 * `eo outbox flush`: sends what is queued and due, dependencies first, each create exactly once
 * (its entry id is the Idempotency-Key); successes go into the mirror at once. Exit code 1 when
 * anything failed, was blocked or is still queued afterwards (e.g. the service is unreachable,
 * or a transient failure waits for its next attempt).
 */
import { makeOutboxMirror } from '../mirror/outbox-mirror';
import { createOutbox, type OutboxEntry } from '../outbox/index';
import type { CommandSpec } from './context';
import { EXIT } from './io';
import { writeJson, writeTable } from './output';
import { flushProgress, progressMode } from './progress';

function problemLine(e: OutboxEntry): string {
  const err = e.lastError;
  const status = err?.status === undefined ? '' : ` ${err.status}`;
  const why = err ? `${err.kind}${status}: ${err.message}` : 'not attempted yet';
  const details = (err?.details ?? []).map((d) => `\n    ${d.path || '(root)'}: ${d.message}`);
  return `  ${e.state} ${e.kind} ${e.id}: ${why}${details.join('')}\n`;
}

export const outboxFlushCommand: CommandSpec = {
  words: ['outbox', 'flush'],
  operands: [],
  usage: 'eo outbox flush [--progress auto|lines|off] [--format json|table]',
  options: ['format', 'progress'],
  async run(ctx) {
    const { io } = ctx;
    const format = ctx.format();
    const progress = flushProgress(io.stderr, progressMode(ctx.values.progress, io.stderr));
    const client = ctx.client();
    const { sqlite } = ctx.database({ create: false });
    const outbox = createOutbox({ db: sqlite, client, mirror: makeOutboxMirror(sqlite) });
    const startedUs = Date.now() * 1000;
    let result;
    try {
      result = await outbox.flush({ signal: io.signal, onProgress: (p) => progress.update(p) });
    } finally {
      progress.end();
    }
    // What this flush left failed, blocked or waiting, with the service's reasons.
    const touched = outbox
      .list({ states: ['failed', 'blocked', 'queued'] })
      .filter((e) => e.state === 'queued' || e.updatedAt >= startedUs);
    if (format === 'json') {
      writeJson(io.stdout, { ...result, problems: touched });
    } else {
      writeTable(
        io.stdout,
        ['SENT', 'FAILED', 'BLOCKED', 'REMAINING'],
        [[result.sent, result.failed, result.blocked, result.remaining]],
      );
    }
    if (touched.length > 0) {
      io.stderr.write(`eo outbox flush: ${touched.length} not sent:\n`);
      for (const e of touched) io.stderr.write(problemLine(e));
    }
    const clean = result.failed === 0 && result.blocked === 0 && result.remaining === 0;
    return clean ? EXIT.ok : EXIT.failed;
  },
};
