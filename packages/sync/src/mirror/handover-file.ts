/**
 * Handed-over outboxes as files (README.md, "Handing over queued work"): JSON of
 * `OutboxHandover` (@eo/domain), carrying the origin of the mirror that wrote it.
 *
 * - Writing: the entries are marked `handed_over` first, then the file is written under a
 *   temporary name, flushed and renamed; if that fails they are taken back, so work is never
 *   both here and in a file, nor in neither.
 * - Reading: the file comes from another laptop: its size is checked before it is read
 *   (`OUTBOX_HANDOVER_LIMITS`), then its JSON against the schema, then its origin against this
 *   mirror's; refused, nothing changes.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import {
  OUTBOX_HANDOVER_FORMAT,
  OUTBOX_HANDOVER_LIMITS,
  OUTBOX_HANDOVER_VERSION,
  OutboxHandover,
} from '@eo/domain';
import type {
  HandoverExport,
  HandoverOptions,
  HandoverReceipt,
  Outbox,
  OutboxEntry,
} from '../outbox/index';
import type { MirrorOrigin } from './origin';

/** The file cannot be taken in; the message says why. */
export class HandoverFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandoverFileError';
  }
}

export interface HandoverWritten {
  readonly file: string;
  readonly bytes: number;
  /** Entries handed over by this file (`handed_over` here now). */
  readonly handedOver: number;
  /** Receipts of received work this laptop sent, for the laptop it came from. */
  readonly receipts: number;
}

/** What a handover would write, before anything is handed over (shown before writing). */
export interface HandoverPlan {
  /** The queued entries it would hand over (those asked for and the queued ones they need). */
  readonly handedOver: readonly OutboxEntry[];
  /** Receipts of received work this laptop sent, for the laptop it came from. */
  readonly receipts: number;
  /** The file's size in bytes, exactly as it would be written now. */
  readonly bytes: number;
}

const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`;

/** Reads and checks a handover file: size, JSON, schema, layout version. */
export function readHandoverFile(file: string): OutboxHandover {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new HandoverFileError(`no file at ${file}`);
  }
  if (size > OUTBOX_HANDOVER_LIMITS.maxFileBytes)
    throw new HandoverFileError(
      `not a handover file: larger than ${mb(OUTBOX_HANDOVER_LIMITS.maxFileBytes)}`,
    );
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new HandoverFileError('not a handover file: it is not JSON (cut short, or another file)');
  }
  const version = (json as { format?: unknown; version?: unknown } | null)?.version;
  if ((json as { format?: unknown } | null)?.format !== OUTBOX_HANDOVER_FORMAT)
    throw new HandoverFileError('not a handover file of EO Field Desk');
  if (typeof version === 'number' && version > OUTBOX_HANDOVER_VERSION)
    throw new HandoverFileError(
      `the file was written by a newer EO Field Desk (layout ${version}): update this laptop's`,
    );
  const parsed = OutboxHandover.safeParse(json);
  if (!parsed.success)
    throw new HandoverFileError(
      `the handover file is not valid: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}`,
    );
  return parsed.data;
}

/** The receipts among a file's entries: sent entries it does not hand over. */
function receiptsOf(exported: HandoverExport): number {
  const handed = new Set(exported.handedOver.map((e) => e.id));
  return exported.entries.filter((e) => e.state === 'sent' && !handed.has(e.id)).length;
}

const textOf = (body: OutboxHandover) => `${JSON.stringify(body, null, 1)}\n`;

export function makeHandoverFiles(deps: {
  readonly outbox: Pick<Outbox, 'handOver' | 'previewHandover' | 'takeBack' | 'receive'>;
  readonly origin: MirrorOrigin;
  readonly transaction: <T>(fn: () => T) => T;
  readonly now?: () => Date;
}) {
  const bodyOf = (exported: HandoverExport): OutboxHandover => ({
    format: OUTBOX_HANDOVER_FORMAT,
    version: OUTBOX_HANDOVER_VERSION,
    id: randomUUID(),
    createdAt: (deps.now?.() ?? new Date()).toISOString(),
    origin: deps.origin.read(),
    entries: [...exported.entries],
  });

  return {
    /**
     * What `write` would hand over and how large the file would be, nothing marked (the id and
     * the time are of fixed length: the size is the written file's).
     */
    plan(options: HandoverOptions = {}): HandoverPlan {
      const exported = deps.outbox.previewHandover(options);
      return {
        handedOver: exported.handedOver,
        receipts: receiptsOf(exported),
        bytes: Buffer.byteLength(textOf(bodyOf(exported))),
      };
    },

    /** Hands over queued work (default all) into `file`; nothing is handed over if it fails. */
    write(file: string, options: HandoverOptions = {}): HandoverWritten {
      const exported = deps.outbox.handOver(options);
      const body = bodyOf(exported);
      const temp = `${file}.${process.pid}.part`;
      try {
        const fd = fs.openSync(temp, 'w');
        try {
          fs.writeFileSync(fd, textOf(body));
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(temp, file);
      } catch (e) {
        fs.rmSync(temp, { force: true });
        for (const entry of exported.handedOver) deps.outbox.takeBack(entry.id);
        throw e;
      }
      return {
        file,
        bytes: fs.statSync(file).size,
        handedOver: exported.handedOver.length,
        receipts: receiptsOf(exported),
      };
    },

    /** What a file holds, checked, nothing taken in. */
    inspect(file: string): OutboxHandover {
      return readHandoverFile(file);
    },

    /**
     * Takes in the work another laptop handed over, and the receipts of ours it sent; refused
     * (another origin, an entry the outbox refuses) nothing changes. `service`: this laptop's
     * service when the mirror has not recorded one.
     */
    async read(
      file: string,
      options: { service?: string | null | undefined } = {},
    ): Promise<HandoverReceipt & { readonly from: OutboxHandover['origin'] }> {
      const body = readHandoverFile(file);
      const what = 'The handed-over work';
      deps.origin.check(what, body.origin, options.service ?? null);
      const receipt = await deps.outbox.receive(body.entries);
      deps.transaction(() =>
        deps.origin.admit(what, body.origin, 'handover', options.service ?? null),
      );
      return { ...receipt, from: body.origin };
    },
  };
}

export type HandoverFiles = ReturnType<typeof makeHandoverFiles>;
