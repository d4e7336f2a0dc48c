/**
 * Queued work handed over to another laptop (@eo/sync's handover files): "Hand over queued
 * work…" shows what a file would take and its size, then writes it (the entries are
 * `handed_over` here from then on, never sent from this laptop); "Send handed-over work…" takes
 * another laptop's file into this outbox, under the entries' own ids (their Idempotency-Keys).
 * The file crosses the bridge as base64 like a field package. No Node, no DOM: the renderer
 * imports this file.
 */
import { OUTBOX_HANDOVER_LIMITS, OutboxKind } from '@eo/domain';
import { z } from 'zod';
import { MAX_IMPORT_FILE_BYTES } from '../../shared/file-limits';
import { fileBase64, fileName, id } from '../../shared/contract/fields';
import { ExportedFile } from '../files/file-export';
import { OutboxEntryView } from '../outbox/contract';

const count = z.number().int().min(0);
const ids = z.array(id).min(1).max(OUTBOX_HANDOVER_LIMITS.maxEntries);

export const HandoverPlanView = z.object({
  /** The queued entries the file would hand over: those asked for and those they refer to. */
  entries: z.array(z.object({ id: z.string(), kind: OutboxKind, summary: z.string() })),
  /** Paid orders among them: the other laptop confirms each at a fresh quote. */
  orders: count,
  /** Receipts of work received from another laptop and sent here, going back with the file. */
  receipts: count,
  /** The file's size. */
  bytes: count,
});
export type HandoverPlanView = z.infer<typeof HandoverPlanView>;

/** The handover file (saved by main's dialog, or downloaded in browser mode). */
export const HandoverFile = ExportedFile.extend({
  /** The entries handed over by it (taken back with `outbox.takeBack` if it is not saved). */
  handedOver: z.array(z.string()),
  receipts: count,
});
export type HandoverFile = z.infer<typeof HandoverFile>;

export const HandoverOpenRequest = z
  .object({
    name: fileName,
    base64: fileBase64(
      `the file is larger than ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB: not a handover file`,
    ),
  })
  .strict();

export const HandoverReceived = z.object({
  /** Queued here now, to be sent by this laptop (under the entries' own ids). */
  queued: count,
  /** This laptop's handed-over entries the other laptop sent: sent here now. */
  confirmed: count,
  /** Already here: left as they were (a file read twice doubles nothing). */
  kept: count,
  /** Paid orders among the queued: each waits for a confirmation at a fresh quote. */
  orders: count,
});
export type HandoverReceived = z.infer<typeof HandoverReceived>;

export const handoverMethods = {
  /** What a handover of these entries (default every queued one) would write; nothing changes. */
  'outbox.handoverPlan': {
    input: z.object({ ids: ids.optional() }).strict().optional(),
    output: HandoverPlanView,
  },
  /**
   * The file of these entries (the plan's), each `handed_over` here from now on. `conflict` when
   * one is no longer queued, `busy` while a batch is sending.
   */
  'outbox.handOver': { input: z.object({ ids }).strict(), output: HandoverFile },
  /** Handed-over entries back to the queue: the file was not saved, or never reached anyone. */
  'outbox.takeBack': { input: z.object({ ids }).strict(), output: z.array(OutboxEntryView) },
  /**
   * Another laptop's handover file into this outbox, all or nothing; `invalid_argument` with
   * the reason for a damaged file or one of another service or organisation (nothing changes).
   */
  'outbox.receiveHandover': { input: HandoverOpenRequest, output: HandoverReceived },
} as const;
