/**
 * Typed errors. Every failure of a client call is an `EoClientError` with a `kind` to switch on
 * and `retryable`: whether the failure is transient, i.e. the same request may succeed later
 * (the client itself retries only what is safe to repeat, see `transport.ts`).
 *
 * Messages never contain the API key: server-provided text is passed through `redact` by the
 * transport before an error is built, and no error keeps request headers.
 */
import type { ErrorDetail } from '@eo/domain';
import type { AnyEndpointId } from './types';

export type EoErrorKind = 'api' | 'network' | 'timeout' | 'abort' | 'validation' | 'response';

/** Where a failure happened: the endpoint, and how many attempts were made (0 = nothing sent). */
export interface RequestContext {
  readonly endpoint?: AnyEndpointId | undefined;
  readonly method?: string | undefined;
  /** URL path and query, without the origin. */
  readonly path?: string | undefined;
  readonly attempts?: number | undefined;
}

interface BaseInit extends RequestContext {
  readonly message: string;
  readonly cause?: unknown;
}

export abstract class EoClientError extends Error {
  abstract readonly kind: EoErrorKind;
  abstract readonly retryable: boolean;
  readonly endpoint: AnyEndpointId | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  /** Attempts made before giving up (0 when the request was never sent). */
  attempts: number;

  protected constructor(init: BaseInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.endpoint = init.endpoint;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts ?? 0;
  }
}

/** The service answered with a non-2xx status. */
export class EoApiError extends EoClientError {
  readonly kind = 'api' as const;
  readonly retryable: boolean;
  readonly status: number;
  /** The service's error code (ours: `validation_failed`, `unauthorized`, ...), when its body has one. */
  readonly code: string | undefined;
  /**
   * Field-level details as `{ path, message, ... }`, when the body has them: a list (ours), an
   * object of field -> message (the real service), FastAPI's `detail` list, ... (`error-body.ts`).
   */
  readonly details: ErrorDetail[] | undefined;
  /** The body's details as the service sent them (a list, an object, null), when it sent any. */
  readonly rawDetails: unknown;
  /** The parsed error body (JSON value or text), API key redacted. */
  readonly body: unknown;
  /** Delay asked for by a Retry-After header, in ms (already capped). */
  readonly retryAfterMs: number | undefined;

  constructor(
    init: BaseInit & {
      status: number;
      code?: string | undefined;
      details?: ErrorDetail[] | undefined;
      rawDetails?: unknown;
      body?: unknown;
      retryAfterMs?: number | undefined;
    },
  ) {
    super(init);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.rawDetails = init.rawDetails;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
    this.retryable = isRetryableStatus(init.status);
  }
}

/** Statuses that say "try again later": rate limits, request timeouts, gateways, overload. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status === 502 || status === 503 || status === 504;
}

/** Connection refused or reset, DNS failure, or a body cut off before its end. */
export class EoNetworkError extends EoClientError {
  readonly kind = 'network' as const;
  readonly retryable = true;
  constructor(init: BaseInit) {
    super(init);
  }
}

/** No complete response within the per-attempt timeout. */
export class EoTimeoutError extends EoClientError {
  readonly kind = 'timeout' as const;
  readonly retryable = true;
  readonly timeoutMs: number;
  constructor(init: BaseInit & { timeoutMs: number }) {
    super(init);
    this.timeoutMs = init.timeoutMs;
  }
}

/** The caller's AbortSignal fired (during a request, a retry wait or a wait for a free slot). */
export class EoAbortError extends EoClientError {
  readonly kind = 'abort' as const;
  readonly retryable = false;
  constructor(init: BaseInit) {
    super(init);
  }
}

/** The request failed client-side validation against the domain schemas; nothing was sent. */
export class EoValidationError extends EoClientError {
  readonly kind = 'validation' as const;
  readonly retryable = false;
  /** One entry per problem: dotted field path, message, and where (`params`, `query`, `body`). */
  readonly details: Array<ErrorDetail & { in: 'params' | 'query' | 'body' }>;
  constructor(init: BaseInit & { details: EoValidationError['details'] }) {
    super(init);
    this.details = init.details;
  }
}

/**
 * A 2xx response whose body cannot be used: not JSON, empty, or missing its envelope. One whose
 * JSON ends before it does (`cutOff`: a gateway's full buffer, a broken cache, a body cut in a
 * complete message) is transient, and retried like a network error.
 */
export class EoResponseError extends EoClientError {
  readonly kind = 'response' as const;
  readonly retryable: boolean;
  /** The body is JSON cut short (it starts as JSON and does not parse): transient. */
  readonly cutOff: boolean;
  readonly status: number;
  /** Schema issues, when the body was JSON but unusable. */
  readonly issues: Array<{ path: string; message: string }> | undefined;
  /**
   * The body as received (parsed JSON, else its text; API key redacted), so a caller can keep
   * the raw answer of a 2xx it could not use (e.g. a create that may have happened).
   */
  readonly body: unknown;
  constructor(
    init: BaseInit & {
      status: number;
      issues?: Array<{ path: string; message: string }>;
      body?: unknown;
      cutOff?: boolean;
    },
  ) {
    super(init);
    this.cutOff = init.cutOff ?? false;
    this.retryable = this.cutOff;
    this.status = init.status;
    this.issues = init.issues;
    this.body = init.body;
  }
}

export function isEoClientError(e: unknown): e is EoClientError {
  return e instanceof EoClientError;
}

/** Replace every occurrence of each secret in `text` (secrets shorter than 4 chars are ignored). */
export function redactText(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4 && out.includes(s)) out = out.split(s).join('[redacted]');
  }
  return out;
}

/** Deep copy of a JSON-ish value with every string redacted. */
export function redactValue(value: unknown, secrets: Iterable<string>): unknown {
  const list = [...secrets].filter((s) => s.length >= 4);
  if (list.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[redactText(k, list)] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value);
}
