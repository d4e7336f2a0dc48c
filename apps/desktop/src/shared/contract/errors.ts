/**
 * The one error type that crosses the boundary between the renderer and the backend, and the
 * envelope every answer travels in (errors as plain data: Electron IPC drops error classes).
 */
import { z } from 'zod';
import type { Bridge, Method } from './index';

export type ContractErrorCode =
  | 'invalid_argument'
  | 'unknown_method'
  | 'not_configured'
  /** The user's "Work offline" switch is on: the call needs the service, nothing was sent. */
  | 'working_offline'
  | 'offline'
  | 'unauthorized'
  | 'busy'
  /** The operation does not apply in the record's current state (e.g. cancel a sent entry). */
  | 'conflict'
  /** The disk of the data folder is full: the message says how much to free; nothing was lost. */
  | 'disk_full'
  | 'internal';

export interface ContractIssue {
  /** Dotted path into the argument (`query.eo:cloud_cover.lt`, `bbox.3`); empty for the whole. */
  readonly path: string;
  readonly message: string;
  /**
   * An input that would pass instead, for the form to offer ("Split into one item per
   * satellite"): the order's `order_items` with the refused item split (@eo/sync's outbox).
   */
  readonly fix?: { order_items: unknown[] } | undefined;
}

/** The one error type that crosses the boundary (as plain JSON, rebuilt on the other side). */
export class ContractError extends Error {
  readonly code: ContractErrorCode;
  readonly details: { issues?: ContractIssue[] } | undefined;
  constructor(code: ContractErrorCode, message: string, details?: { issues?: ContractIssue[] }) {
    super(message);
    this.name = 'ContractError';
    this.code = code;
    this.details = details;
  }
  toJSON(): SerializedError {
    return {
      code: this.code,
      message: this.message,
      ...(this.details !== undefined ? { details: this.details } : {}),
    };
  }
  static from(e: SerializedError): ContractError {
    return new ContractError(e.code, e.message, e.details);
  }
}

export const SerializedError = z.object({
  code: z.enum([
    'invalid_argument',
    'unknown_method',
    'not_configured',
    'working_offline',
    'offline',
    'unauthorized',
    'busy',
    'conflict',
    'disk_full',
    'internal',
  ]),
  message: z.string(),
  details: z
    .object({
      issues: z
        .array(
          z.object({
            path: z.string(),
            message: z.string(),
            fix: z.object({ order_items: z.array(z.unknown()) }).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});
export type SerializedError = z.infer<typeof SerializedError>;

/** What crosses IPC / HTTP: errors travel as data, since Electron IPC drops error classes. */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

export function issuesOf(error: z.ZodError): ContractIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** Rebuild an error from the other side of the boundary; anything unexpected is `internal`. */
export function toContractError(e: unknown): ContractError {
  if (e instanceof ContractError) return e;
  const parsed = SerializedError.safeParse(e);
  if (parsed.success) return ContractError.from(parsed.data);
  return new ContractError('internal', e instanceof Error ? e.message : 'internal error');
}

/**
 * Wraps a bridge whose rejections are plain data (the preload's) so they become ContractErrors.
 * Here, not in index.ts: the renderer's first screen imports it without every method's schemas.
 */
export function withContractErrors(raw: Bridge): Bridge {
  return {
    call: ((method: Method, input?: unknown) =>
      (raw.call as (m: Method, i?: unknown) => Promise<unknown>)(method, input).catch(
        (e: unknown) => {
          throw toContractError(e);
        },
      )) as Bridge['call'],
    on: (event, listener) => raw.on(event, listener),
  };
}
