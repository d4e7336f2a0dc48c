/**
 * An outbox handed over: queued creates a laptop without a link writes to a file for another
 * laptop to send. Each entry keeps its id, which is the Idempotency-Key of every attempt on
 * either laptop, its local references (`local:<id>` of entries in the same file), whether an
 * earlier attempt may already have created it (then the receiving laptop looks for it before it
 * sends, by the outbox's rules), and a paid order's price when it was queued (shown beside the
 * fresh quote the sending laptop asks for). The same file carries `sent` entries: dependencies
 * already created (their ids resolve the references) and, written by the receiving laptop,
 * receipts of what it sent for the laptop that handed it over.
 */
import { z } from 'zod';
import { OutboxKind } from './outbox';
import { ServiceOrigin } from './service-origin';

export const OUTBOX_HANDOVER_FORMAT = 'eo-outbox-handover';
export const OUTBOX_HANDOVER_VERSION = 1;

export const OUTBOX_HANDOVER_LIMITS = {
  /** Entries in one file. */
  maxEntries: 10_000,
  /** The whole file, read into memory after this check (JSON). */
  maxFileBytes: 64 * 1024 * 1024,
} as const;

const micros = z.number().int().min(0);
const entryId = z.uuid();

export const HandoverEntry = z.strictObject({
  id: entryId,
  kind: OutboxKind,
  /**
   * `queued`: for the receiving laptop to send. `sent`: created already (a dependency whose id
   * resolves the references, or a receipt for the laptop that handed the entry over).
   */
  state: z.enum(['queued', 'sent']),
  /** The create's input as queued (checked again by the receiving outbox). */
  input: z.record(z.string(), z.unknown()),
  /** Entries this one refers to (`local:<id>`): in the same file, sent first. */
  dependsOn: z.array(entryId).max(1000),
  createdAt: micros,
  attempts: z.number().int().min(0),
  /** An earlier attempt may have created it (its answer was lost): looked for before resent. */
  inDoubt: z
    .strictObject({ message: z.string().max(4000), attemptedAt: micros.nullable() })
    .nullable(),
  /** `sent`: the created resource's id and the service's answer. */
  remoteId: z.string().min(1).max(512).nullable(),
  response: z.unknown().optional(),
  /** A queued order's price when it was queued (the handing laptop's quote), if it had one. */
  priceWhenQueued: z
    .strictObject({ total: z.number().finite(), quotedAt: z.string().max(64) })
    .nullable()
    .optional(),
});
export type HandoverEntry = z.infer<typeof HandoverEntry>;

export const OutboxHandover = z
  .strictObject({
    format: z.literal(OUTBOX_HANDOVER_FORMAT),
    version: z.number().int().min(1),
    id: z.uuid(),
    createdAt: z.iso.datetime({ offset: true }),
    origin: ServiceOrigin,
    entries: z.array(HandoverEntry).max(OUTBOX_HANDOVER_LIMITS.maxEntries),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.entries.forEach((e, i) => {
      if (seen.has(e.id))
        ctx.addIssue({ code: 'custom', path: ['entries', i, 'id'], message: 'listed twice' });
      seen.add(e.id);
      if (e.state === 'sent' && e.remoteId === null)
        ctx.addIssue({
          code: 'custom',
          path: ['entries', i, 'remoteId'],
          message: 'a sent entry names the id it was created with',
        });
    });
  });
export type OutboxHandover = z.infer<typeof OutboxHandover>;
