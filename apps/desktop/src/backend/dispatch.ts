/**
 * The one entry for calls from the renderer (IPC relay, browser-mode HTTP): validate the raw
 * argument with the contract (bad input never reaches a handler), run the handler, turn any
 * failure into a ContractError as plain data.
 */
import { diskFullMessage, isDiskFull, OfflineSearchError, SyncBusyError } from '@eo/sync';
import {
  ContractError,
  contract,
  parseInput,
  type CallResult,
  type Method,
  type Output,
  type ParsedInput,
} from '../shared/contract';

/** The handlers of some methods (an area's): each takes the argument dispatch parsed. */
export type HandlersFor<M extends Method> = {
  [K in M]: (input: ParsedInput<K>) => Promise<Output<K>> | Output<K>;
};

/** One handler per contract method (`../areas/handlers.ts` combines the areas'). */
export type Handlers = HandlersFor<Method>;

export interface DispatchOptions {
  /** Check every result against the contract's output schema (tests; costly on footprints). */
  readonly validateOutput?: boolean;
  /** Where unexpected failures are reported (never with the argument: it may hold the key). */
  readonly onInternalError?: (method: string, error: unknown) => void;
  /** The data folder: a full disk is answered with what its disk lacks (`disk_full`). */
  readonly dataDir?: string;
}

export async function dispatch(
  handlers: Handlers,
  method: unknown,
  raw: unknown,
  options: DispatchOptions = {},
): Promise<CallResult<unknown>> {
  try {
    const input = parseInput(method, raw);
    const m = method as Method;
    const handler = handlers[m] as (i: unknown) => unknown;
    const value = await handler(input);
    if (options.validateOutput) {
      const checked = contract[m].output.safeParse(value);
      if (!checked.success) {
        throw new ContractError(
          'internal',
          `${m} returned a value outside the contract: ${checked.error.message}`,
        );
      }
    }
    return { ok: true, value };
  } catch (e) {
    const error = toBoundaryError(e, options.dataDir);
    if (error.code === 'internal') options.onInternalError?.(String(method), e);
    return { ok: false, error: error.toJSON() };
  }
}

function toBoundaryError(e: unknown, dataDir: string | undefined): ContractError {
  if (e instanceof ContractError) return e;
  // Not a bug to report: the user frees room (every write is a transaction or a temp file
  // renamed into place, so nothing was lost), as the CLI says it.
  if (isDiskFull(e)) return new ContractError('disk_full', diskFullMessage(dataDir ?? '.'));
  if (e instanceof OfflineSearchError) {
    // Input that passed the schema but the search cannot run (the service's 400 too).
    return new ContractError('invalid_argument', e.message, { issues: [...e.issues] });
  }
  if (e instanceof SyncBusyError) return new ContractError('busy', e.message);
  return new ContractError('internal', e instanceof Error ? e.message : 'internal error');
}
