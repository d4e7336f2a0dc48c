/**
 * `eo outbox handover export --out FILE [--ids ID,ID]` and `eo outbox handover import FILE`:
 * queued work written to a file for another laptop to send, and taken in there (README.md,
 * "Handing over queued work"). Exported entries are `handed_over` here and never sent from this
 * laptop; a later flush finds them sent (by lookup), or the other laptop's own export, read
 * here, brings their receipts (by key). Imported paid orders wait for a person's confirmation
 * at a fresh quote (`eo outbox quote`, `eo outbox flush --confirm-orders`). Offline.
 */
import { makeMirrorOrigin, OriginMismatchError } from '../mirror/origin';
import { HandoverFileError, makeHandoverFiles } from '../mirror/handover-file';
import { makeOutboxMirror } from '../mirror/outbox-mirror';
import { createOutbox } from '../outbox/index';
import { listFlag, UsageError } from './args';
import { CliFailure, type CommandSpec } from './context';
import { EXIT, resolvePath } from './io';
import { writeJson } from './output';

function files(ctx: Parameters<CommandSpec['run']>[0]) {
  const { sqlite } = ctx.database({ create: true });
  return makeHandoverFiles({
    outbox: createOutbox({ db: sqlite, mirror: makeOutboxMirror(sqlite) }),
    origin: makeMirrorOrigin(sqlite),
    transaction: (fn) => sqlite.transaction(fn)(),
  });
}

export const outboxHandoverExportCommand: CommandSpec = {
  words: ['outbox', 'handover', 'export'],
  operands: [],
  usage: 'eo outbox handover export --out FILE [--ids ID,ID] [--format json|table]',
  options: ['out', 'ids', 'format'],
  run(ctx) {
    const format = ctx.format();
    if (ctx.values.out === undefined || ctx.values.out === '-')
      throw new UsageError('a handover is a file: give --out FILE');
    const out = resolvePath(ctx.io, ctx.values.out);
    const ids = ctx.values.ids === undefined ? undefined : listFlag(ctx.values.ids);
    const written = files(ctx).write(out, { ids });
    if (format === 'json') writeJson(ctx.io.stdout, written);
    else
      ctx.io.stdout.write(
        `handed over ${written.handedOver} queued creates to ${out}${written.receipts > 0 ? `, with ${written.receipts} receipts of work sent here` : ''}: they are sent by the laptop that imports the file, never from here (\`eo outbox take-back ID\` if it never gets them)\n`,
      );
    return Promise.resolve(EXIT.ok);
  },
};

export const outboxHandoverImportCommand: CommandSpec = {
  words: ['outbox', 'handover', 'import'],
  operands: ['file'],
  usage: 'eo outbox handover import <file> [--format json|table]',
  options: ['format'],
  async run(ctx) {
    const format = ctx.format();
    const file = resolvePath(ctx.io, ctx.operands[0]!);
    let receipt;
    try {
      receipt = await files(ctx).read(file, { service: ctx.values.url ?? ctx.io.env.EO_URL });
    } catch (e) {
      if (e instanceof HandoverFileError || e instanceof OriginMismatchError)
        throw new CliFailure(`${file}: ${e.message}`);
      throw e;
    }
    if (format === 'json') writeJson(ctx.io.stdout, receipt);
    else {
      ctx.io.stdout.write(
        `queued ${receipt.queued.length} creates from another laptop; ${receipt.confirmed.length} of ours it sent are sent here now; ${receipt.kept.length} were here already\n`,
      );
      if (receipt.orders.length > 0)
        ctx.io.stdout.write(
          `${receipt.orders.length} orders wait for your confirmation at today's price: eo outbox quote, then eo outbox flush --confirm-orders ID=TOTAL,...\n`,
        );
    }
    return EXIT.ok;
  },
};
