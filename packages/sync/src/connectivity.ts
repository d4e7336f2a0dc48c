/**
 * Is the service there, and does it accept our key? Reachable means the service answers its
 * `GET /ping` (the provider's, and ours as an extension): a cut connection, a timeout or a
 * gateway's error page there is not a service that answers, and nothing more is asked. Then one
 * cheap authenticated read (GET /v0/indices?limit=1) says whether the key is accepted, which a
 * ping cannot (it needs no key). A service without a ping (404) is judged by that read alone.
 */
import { EoAbortError, EoApiError, EoClientError, type EoClient } from '@eo/api-client';

export type ConnectivityStatus = 'online' | 'offline' | 'unauthorized' | 'error';

export interface ConnectivityCheck {
  readonly status: ConnectivityStatus;
  /** Why, when not online. */
  readonly message?: string | undefined;
}

/** What a failed request says about the service: not reached, key refused, or an error answer. */
function failure(err: EoClientError): ConnectivityCheck {
  if (err instanceof EoAbortError || err.kind === 'network' || err.kind === 'timeout') {
    return { status: 'offline', message: err.message };
  }
  if (err instanceof EoApiError && err.status === 401) {
    return { status: 'unauthorized', message: err.message };
  }
  return { status: 'error', message: err.message };
}

export async function checkConnectivity(
  client: EoClient,
  options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined } = {},
): Promise<ConnectivityCheck> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  // The whole check (ping and read, the client's own retries included) fits in timeoutMs.
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    await client.extensions.ping({ signal, timeoutMs });
    await client.listIndices({ limit: 1 }, { signal, timeoutMs });
    return { status: 'online' };
  } catch (err) {
    if (options.signal?.aborted) throw err;
    if (!(err instanceof EoClientError)) throw err;
    return failure(err);
  }
}
