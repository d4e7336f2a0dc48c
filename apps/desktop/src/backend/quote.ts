/**
 * Online calls the screens wait for (the quote, re-reading created records): the service's
 * failures as contract errors a person can act on. Not configured -> `not_configured`, working
 * offline -> `working_offline`;
 * unreachable, timed out or overloaded -> `offline`; a refused key -> `unauthorized`; a 4xx with
 * field details -> `invalid_argument` whose issue paths are the service's own
 * (`order_items.0.geometry`).
 */
import {
  EoApiError,
  EoClientError,
  EoValidationError,
  type BodyInput,
  type EoClient,
} from '@eo/api-client';
import { clientRequestSchema, OpenCreateOrderRequest } from '@eo/domain';
import { ContractError, type Input, type Output } from '../shared/contract';
import { serviceMessage } from './outbox-view';
import { unreachable } from './network-words';
import { notConfigured, type NoService } from './no-service';

/** Per attempt: a quote is answered in milliseconds, or the service is not really there. */
const QUOTE_TIMEOUT_MS = 10_000;

/** `noService`: why there is no client ("Work offline", or not set up; default not set up). */
export function requireClient(
  client: EoClient | null,
  noService: NoService = notConfigured,
): EoClient {
  if (!client) throw noService();
  return client;
}

/** A failed service call as the error the screen shows; `what` names the call ("The quote"). */
export function serviceCallError(e: unknown, what: string): unknown {
  if (!(e instanceof EoClientError)) return e;
  if (e instanceof EoApiError) {
    if (e.status === 401) {
      return new ContractError(
        'unauthorized',
        'The service refused the API key: enter a valid key in Settings.',
      );
    }
    if (e.status === 403) {
      return new ContractError('unauthorized', `${what} is not allowed with this API key.`);
    }
    if (e.retryable || e.status >= 500) {
      return new ContractError(
        'offline',
        `The service cannot answer right now (${e.status}): try again in a moment.`,
      );
    }
    if (e.status >= 400 && e.status < 500) {
      const issues = (e.details ?? []).map((d) => ({ path: d.path, message: d.message }));
      return new ContractError(
        'invalid_argument',
        `The service refused it: ${serviceMessage(e)}`,
        issues.length ? { issues } : undefined,
      );
    }
  }
  if (e instanceof EoValidationError) {
    const issues = e.details.map((d) => ({ path: d.path, message: d.message }));
    return new ContractError('invalid_argument', e.message, { issues });
  }
  if (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'abort') {
    return new ContractError(
      'offline',
      `The service cannot be reached: ${unreachable(e.message)}. ${what} needs a connection: try again when online.`,
    );
  }
  return new ContractError('internal', `${what} failed: ${e.message}`);
}

/** `jobs.estimate`: a workflow's cost in credits before a paid job; null without an estimate. */
export async function estimateJob(
  connection: { client: EoClient; signal: AbortSignal } | null,
  input: Input<'jobs.estimate'>,
  noService?: NoService,
): Promise<Output<'jobs.estimate'>> {
  const c = requireClient(connection?.client ?? null, noService);
  const signal = connection!.signal;
  const filter = input.projectId === undefined ? {} : { project_id: input.projectId };
  try {
    const e = await c.extensions.estimateWorkflowCost(input.workflowId, filter, {
      timeoutMs: QUOTE_TIMEOUT_MS,
      signal,
    });
    if (e === null) return null;
    const count = (e as { aoi_count?: unknown }).aoi_count;
    return {
      estimatedCost: e.estimated_cost,
      aoiCount: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null,
    };
  } catch (err) {
    if (signal.aborted) {
      throw new ContractError(
        'offline',
        'The service changed while the estimate was asked for: ask again.',
      );
    }
    throw serviceCallError(err, 'The estimate');
  }
}

/** `orders.quote`: the service's dry run (price, uplifts, feasibility); nothing is created. */
export async function quoteOrder(
  connection: { client: EoClient; signal: AbortSignal } | null,
  input: OpenCreateOrderRequest,
  noService?: NoService,
): Promise<Output<'orders.quote'>> {
  const c = requireClient(connection?.client ?? null, noService);
  const signal = connection!.signal;
  // Open values (a provider recurrence) are typed wider than our spec's; the client checks them
  // against its service profile before sending, unless dispatch did with the very same schema.
  const body = { ...input, dry_run: true } as BodyInput<'createOrder'>;
  const checked = clientRequestSchema(c.dialect, 'createOrder', 'body') === OpenCreateOrderRequest;
  try {
    // Ends with the connection: a price from the service the user just left is no answer.
    return await c.createOrder(body, {
      timeoutMs: QUOTE_TIMEOUT_MS,
      signal,
      ...(checked ? { validate: false } : {}),
    });
  } catch (e) {
    if (signal.aborted) {
      throw new ContractError(
        'offline',
        'The service changed while the quote was asked for: ask again.',
      );
    }
    throw serviceCallError(e, 'The quote');
  }
}
