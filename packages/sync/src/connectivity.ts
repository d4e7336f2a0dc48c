/**
 * Is the service there, and does it accept our key? One cheap authenticated read
 * (GET /v0/indices?limit=1) answers both honestly: a ping endpoint would say nothing about auth.
 */
import { EoAbortError, EoApiError, EoClientError, type EoClient } from '@eo/api-client';

export type ConnectivityStatus = 'online' | 'offline' | 'unauthorized' | 'error';

export interface ConnectivityCheck {
  readonly status: ConnectivityStatus;
  /** Why, when not online. */
  readonly message?: string | undefined;
}

export async function checkConnectivity(
  client: EoClient,
  options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined } = {},
): Promise<ConnectivityCheck> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  // The whole check, the client's own retries included, fits in timeoutMs.
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    await client.listIndices({ limit: 1 }, { signal, timeoutMs });
    return { status: 'online' };
  } catch (err) {
    if (options.signal?.aborted) throw err;
    if (!(err instanceof EoClientError)) throw err;
    if (err instanceof EoAbortError || err.kind === 'network' || err.kind === 'timeout') {
      return { status: 'offline', message: err.message };
    }
    if (err instanceof EoApiError && err.status === 401) {
      return { status: 'unauthorized', message: err.message };
    }
    return { status: 'error', message: err.message };
  }
}
