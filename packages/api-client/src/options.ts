/** Options of `createEoClient` and of each call, with their defaults. */
import {
  parseServiceDialect,
  type IdempotencyPolicy,
  type RequestWarning,
  type ServiceDialect,
} from '@eo/domain';
import type { ResponseTiming } from './transport';
import type { AnyEndpointId } from './types';

export interface RetryOptions {
  /** Attempts per logical call, the first one included. Default 4. */
  readonly maxAttempts?: number;
  /** Backoff base: attempt n waits random(0, min(maxDelayMs, baseDelayMs * 2^(n-1))). Default 250. */
  readonly baseDelayMs?: number;
  /** Largest backoff delay. Default 10 000. */
  readonly maxDelayMs?: number;
  /** Largest wait a Retry-After header can impose. Default 60 000. */
  readonly maxRetryAfterMs?: number;
}

/** Given to `onRequest` before each attempt. No API key: Authorization is shown redacted. */
export interface RequestEvent {
  readonly endpoint: AnyEndpointId;
  readonly method: string;
  /** URL path with its query string, without the origin. */
  readonly path: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Given to `onResponse` after each attempt, successful or not. */
export interface ResponseEvent {
  readonly endpoint: AnyEndpointId;
  readonly method: string;
  readonly path: string;
  readonly attempt: number;
  /** HTTP status, undefined when no response arrived (network error, timeout, abort). */
  readonly status: number | undefined;
  readonly durationMs: number;
  /** Set when the attempt failed: the error kind (`api`, `network`, `timeout`, ...). */
  readonly error?: string | undefined;
  /** Set when the client will retry after this failure: the wait before the next attempt. */
  readonly retryInMs?: number | undefined;
  /** Set on an answered attempt: its wait, body time and size (what read-ahead measures). */
  readonly timing?: ResponseTiming | undefined;
}

/** A response that breaks the domain schema (reported, and still returned when usable). */
export interface SchemaDriftEvent {
  readonly endpoint: AnyEndpointId;
  readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }>;
}

/** A request sent with values its service profile does not list (sent anyway). */
export interface RequestWarningEvent {
  readonly endpoint: AnyEndpointId;
  readonly warnings: readonly RequestWarning[];
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
export type SleepLike = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface EoClientOptions {
  /** Service origin, with or without a trailing slash, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /** The key, or a function returning the current one (asked before every attempt: key rotation). */
  readonly apiKey: string | (() => string | Promise<string>);
  /** Put before the key in the Authorization header. Default '' (the spec's bare key); e.g. 'Bearer '. */
  readonly authPrefix?: string;
  /** Per-attempt timeout covering the whole response, body included. Default 30 000. */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  /** Most requests in flight at once across this client. Default 6. */
  readonly concurrency?: number;
  /** Validate inputs against the domain request schemas before sending. Default true. */
  readonly validateRequests?: boolean;
  /**
   * The service's profile (`spec` | `provider-v0`, `dialect.ts` in @eo/domain): request shapes,
   * accepted values and read-backs. Default `spec`.
   */
  readonly dialect?: ServiceDialect;
  /** Called before sending a request with open values its profile does not list. */
  readonly onRequestWarning?: (event: RequestWarningEvent) => void;
  readonly fetch?: FetchLike;
  readonly onRequest?: (event: RequestEvent) => void;
  readonly onResponse?: (event: ResponseEvent) => void;
  readonly onSchemaDrift?: (event: SchemaDriftEvent) => void;
  /** Jitter source in [0, 1). Default Math.random. */
  readonly random?: () => number;
  /** Waits between attempts; tests inject one that records delays. Must honour the signal or not; the client races it anyway. */
  readonly sleep?: SleepLike;
  /**
   * Does the service honour Idempotency-Key? `auto` (default): only once it said so
   * (`client.capabilities`); `honoured` / `ignored` force it. Creates are resent on the
   * client's own only when honoured.
   */
  readonly idempotency?: IdempotencyPolicy;
}

export interface CallOptions {
  readonly signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt timeout for this call. */
  readonly timeoutMs?: number | undefined;
  /**
   * Creates only. Default: a fresh key per logical call, reused on every attempt (retried only
   * when the service honours the key: `client.capabilities`). Pass your own (e.g. an outbox entry
   * id) to make a call safe across restarts, or `false` to send none (then a create is never
   * retried).
   */
  readonly idempotencyKey?: string | false | undefined;
  /**
   * `false`: this input has passed the very schema the client would check it with already (an
   * outbox entry validated at enqueue), so it is not checked again before sending. Default: the
   * client's `validateRequests`.
   */
  readonly validate?: boolean | undefined;
  /**
   * `false`: an answer that says when to come back (a Retry-After on a 429 or 503) ends the call
   * at once with its error (`retryAfterMs` set) instead of being waited for within it: a caller
   * with other work to do meanwhile (the outbox's other kinds) schedules the retry itself.
   * Default true.
   */
  readonly waitRetryAfter?: boolean | undefined;
}

export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly apiKey: EoClientOptions['apiKey'];
  readonly authPrefix: string;
  readonly timeoutMs: number;
  readonly retry: Required<RetryOptions>;
  readonly concurrency: number;
  readonly validateRequests: boolean;
  readonly dialect: ServiceDialect;
  readonly onRequestWarning: EoClientOptions['onRequestWarning'];
  readonly fetch: FetchLike;
  readonly onRequest: EoClientOptions['onRequest'];
  readonly onResponse: EoClientOptions['onResponse'];
  readonly onSchemaDrift: EoClientOptions['onSchemaDrift'];
  readonly random: () => number;
  readonly sleep: SleepLike | undefined;
  readonly idempotency: IdempotencyPolicy;
}

function positive(name: string, v: number, min: number): number {
  if (!Number.isFinite(v) || v < min) throw new RangeError(`${name} must be a number >= ${min}`);
  return v;
}

export function resolveOptions(o: EoClientOptions): ResolvedOptions {
  if (!/^https?:\/\//i.test(o.baseUrl)) {
    throw new TypeError('baseUrl must be an http(s) URL, e.g. http://127.0.0.1:8080');
  }
  const r = o.retry ?? {};
  return {
    baseUrl: o.baseUrl.replace(/\/+$/, ''),
    apiKey: o.apiKey,
    authPrefix: o.authPrefix ?? '',
    timeoutMs: positive('timeoutMs', o.timeoutMs ?? 30_000, 1),
    retry: {
      maxAttempts: Math.floor(positive('retry.maxAttempts', r.maxAttempts ?? 4, 1)),
      baseDelayMs: positive('retry.baseDelayMs', r.baseDelayMs ?? 250, 0),
      maxDelayMs: positive('retry.maxDelayMs', r.maxDelayMs ?? 10_000, 0),
      maxRetryAfterMs: positive('retry.maxRetryAfterMs', r.maxRetryAfterMs ?? 60_000, 0),
    },
    concurrency: Math.floor(positive('concurrency', o.concurrency ?? 6, 1)),
    validateRequests: o.validateRequests ?? true,
    dialect: o.dialect === undefined ? 'spec' : parseServiceDialect(o.dialect),
    onRequestWarning: o.onRequestWarning,
    // Bound late so a test (or polyfill) replacing globalThis.fetch after creation is honoured.
    fetch: o.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    onRequest: o.onRequest,
    onResponse: o.onResponse,
    onSchemaDrift: o.onSchemaDrift,
    random: o.random ?? Math.random,
    sleep: o.sleep,
    idempotency: o.idempotency ?? 'auto',
  };
}
