/**
 * Queued work handed over from the app (`outbox.handoverPlan`, `handOver`, `takeBack`,
 * `receiveHandover`): @eo/sync's `mirror.handover` with the app's bounds. A handover file is
 * written to a private temporary folder and handed back as bytes (main saves it through its
 * dialog, browser mode downloads it); its entries are `handed_over` from then on, and the page
 * takes them back if the file was not saved. A file from another laptop is written there from
 * its bytes and taken in, all or nothing, checked against the service this laptop is set up
 * for. The temporary folder goes in every case.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  HandoverFileError,
  OriginMismatchError,
  OutboxInputError,
  OutboxStateError,
  PAID_KINDS,
  type Mirror,
  type OutboxEntry,
} from '@eo/sync';
import {
  ContractError,
  type HandoverFile,
  type HandoverPlanView,
  type HandoverReceived,
  type OutboxEntryView,
  type ParsedInput,
} from '../shared/contract';
import type { BackendEvents } from './events';
import type { PriceBook } from './order-review';
import type { OutboxViews } from './outbox-view';

export interface HandoverDeps {
  readonly mirror: Pick<Mirror, 'handover' | 'outbox'>;
  readonly views: Pick<OutboxViews, 'view' | 'summary'>;
  readonly prices: Pick<PriceBook, 'composed'>;
  readonly events: Pick<BackendEvents, 'emit'>;
  /** Queued (and sending) entries, for `outbox.changed`. */
  readonly pending: () => number;
  /** A batch is sending: its entries are not for handing over until it ends. */
  readonly sending: () => boolean;
  /** The service this laptop is set up for (checked when the mirror has recorded none). */
  readonly service: () => string | null;
  /** Where temporary folders go (tests: a folder of theirs). */
  readonly tmpDir?: string | undefined;
}

/** "eo-handover-20-creates-20261129-0412.json". */
function fileNameOf(count: number, now: Date): string {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `eo-handover-${count}-create${count === 1 ? '' : 's'}-${stamp}.json`;
}

/** The outbox's refusals, said as the user's to mend. */
function refused<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof OutboxStateError) throw new ContractError('conflict', e.message);
    throw e;
  }
}

export function makeHandoverActions(deps: HandoverDeps) {
  const { handover, outbox } = deps.mirror;
  const priceOf = (entryId: string) => deps.prices.composed(entryId);
  const changed = () => deps.events.emit('outbox.changed', { pending: deps.pending() });
  const withTemp = async <T>(run: (dir: string) => Promise<T> | T): Promise<T> => {
    const dir = fs.mkdtempSync(path.join(deps.tmpDir ?? os.tmpdir(), 'eo-handover-'));
    try {
      return await run(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const notWhileSending = () => {
    if (deps.sending())
      throw new ContractError(
        'busy',
        'The outbox is sending: hand over queued work when the batch has finished.',
      );
  };
  const paid = (entries: readonly OutboxEntry[]) =>
    entries.filter((e) => PAID_KINDS.includes(e.kind)).length;

  return {
    plan(ids: readonly string[] | undefined): HandoverPlanView {
      const plan = refused(() => handover.plan({ ids, priceOf }));
      return {
        entries: plan.handedOver.map((e) => ({
          id: e.id,
          kind: e.kind,
          summary: deps.views.summary(e),
        })),
        orders: paid(plan.handedOver),
        receipts: plan.receipts,
        bytes: plan.bytes,
      };
    },

    handOver(ids: readonly string[]): Promise<HandoverFile> {
      notWhileSending();
      return withTemp((dir) => {
        const entries = refused(() => handover.plan({ ids, priceOf })).handedOver;
        const fileName = fileNameOf(entries.length, new Date());
        const file = path.join(dir, fileName);
        const written = refused(() => handover.write(file, { ids, priceOf }));
        const bytes = fs.readFileSync(file);
        changed();
        return {
          fileName,
          mediaType: 'application/json',
          features: written.handedOver,
          bytes: bytes.length,
          base64: bytes.toString('base64'),
          handedOver: entries.map((e) => e.id),
          receipts: written.receipts,
        };
      });
    },

    /** All or nothing: each must be handed over (a file not saved, or never received). */
    takeBack(ids: readonly string[]): OutboxEntryView[] {
      for (const entryId of ids) {
        const state = outbox.get(entryId)?.state ?? 'unknown';
        if (state !== 'handed_over')
          throw new ContractError(
            'conflict',
            `Entry ${entryId} is ${state}: only handed-over work is taken back. Nothing changed.`,
          );
      }
      const back = ids.map((entryId) => outbox.takeBack(entryId));
      changed();
      return back.map(deps.views.view);
    },

    receive(req: ParsedInput<'outbox.receiveHandover'>): Promise<HandoverReceived> {
      return withTemp(async (dir) => {
        const file = path.join(dir, 'handover.json');
        fs.writeFileSync(file, Buffer.from(req.base64, 'base64'), { mode: 0o600 });
        let receipt;
        try {
          receipt = await handover.read(file, { service: deps.service() });
        } catch (e) {
          if (e instanceof HandoverFileError || e instanceof OriginMismatchError)
            throw new ContractError('invalid_argument', `${req.name}: ${e.message}`, {
              issues: [{ path: 'file', message: e.message }],
            });
          if (e instanceof OutboxInputError)
            throw new ContractError('invalid_argument', `${req.name}: ${e.message}`, {
              issues: e.details.map((d) => ({ path: `file.${d.path}`, message: d.message })),
            });
          throw e;
        }
        changed();
        if (receipt.confirmed.length > 0)
          deps.events.emit('records.changed', {
            kinds: ['orders', 'aois', 'indices', 'visualizations', 'deliveries', 'jobs'],
          });
        return {
          queued: receipt.queued.length,
          confirmed: receipt.confirmed.length,
          kept: receipt.kept.length,
          orders: receipt.orders.length,
        };
      });
    },
  };
}

export type HandoverActions = ReturnType<typeof makeHandoverActions>;
