/**
 * One logical call = up to `maxAttempts` HTTP attempts. Each attempt takes a concurrency slot,
 * has its own timeout (covering the body too), and ends in a response or a typed error; the
 * loop decides whether to retry and how long to wait.
 *
 * What is retried: network errors, timeouts, 2xx bodies cut short (JSON that ends before it
 * does) and 408/429/502/503/504, on reads and searches; on
 * creates only when an Idempotency-Key is sent (one per logical call, the same on every attempt)
 * and the service has said it honours it (`capabilities.ts`), so the service runs the create at
 * most once. Other 4xx and 500 are never retried.
 */
import { ABORTED, abortableSleep } from './abort';
import { errorReason, readErrorBody } from './error-body';
import { CapabilityTracker } from './capabilities';
import {
  EoAbortError,
  EoApiError,
  EoNetworkError,
  EoResponseError,
  EoTimeoutError,
  redactText,
  redactValue,
  type EoClientError,
  type RequestContext,
} from './errors';
import type { CallOptions, ResolvedOptions } from './options';
import type { PreparedRequest } from './request';
import type { AnyEndpointId } from './types';
import { backoffDelay, parseRetryAfter } from './retry';
import { Semaphore } from './semaphore';

export interface TransportResult {
  readonly status: number;
  readonly json: unknown;
  /** The body as received, so a decoder can re-parse a pristine copy. */
  readonly text: string;
  readonly headers: Headers;
  readonly attempts: number;
  /** How the successful attempt's time was spent (read-ahead sizes its window from it). */
  readonly timing: ResponseTiming;
}

/** Time to the response head (round trip + service time), then to the whole body, and its size. */
export interface ResponseTiming {
  readonly waitMs: number;
  readonly bodyMs: number;
  /** Characters of the body as decoded (the JSON text kept in memory, not wire bytes). */
  readonly bytes: number;
  /** Bytes on the wire (the response's Content-Length, compressed), when it said. */
  readonly wireBytes?: number | undefined;
}

type AttemptOutcome =
  | {
      ok: true;
      status: number;
      json: unknown;
      text: string;
      headers: Headers;
      timing?: ResponseTiming;
    }
  | { ok: false; status: number | undefined; error: EoClientError };

/** Most characters of a non-JSON 2xx body kept on its error (a captive portal's page). */
const MAX_KEPT_TEXT = 64 * 1024;

/** Key values (with and without prefix) kept for scrubbing messages. */
const MAX_REMEMBERED_SECRETS = 32;
/** The content codings we ask for, best first (the service's choice is its own). */
export const ACCEPT_ENCODING = 'br, gzip';

const now = (): number => globalThis.performance?.now() ?? Date.now();

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** A short description of a fetch failure: undici puts the socket error code in `cause`. */
function networkReason(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause as { code?: unknown; message?: unknown } | undefined;
  const detail =
    cause && typeof cause === 'object'
      ? [cause.code, cause.message].filter((x) => typeof x === 'string' && x).join(': ')
      : '';
  return detail ? `${e.message} (${detail})` : e.message;
}

/**
 * One attempt's own signal: aborted by the caller's signal or after `timeoutMs` (then
 * `timedOut()` says so). `dispose` clears the timer and the listener.
 */
function attemptDeadline(timeoutMs: number, signal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

export class Transport {
  private readonly semaphore: Semaphore;
  /** Every key value this client has sent, so messages can be scrubbed of them. */
  readonly secrets = new Set<string>();
  /** What the service said about itself (response headers). */
  readonly capabilities: CapabilityTracker;

  constructor(private readonly opts: ResolvedOptions) {
    this.semaphore = new Semaphore(opts.concurrency);
    this.capabilities = new CapabilityTracker(opts.idempotency);
    if (typeof opts.apiKey === 'string') this.addSecret(opts.apiKey);
  }

  /** Requests currently holding a concurrency slot. */
  get inFlight(): number {
    return this.semaphore.inUse;
  }

  private addSecret(key: string): void {
    for (const s of this.opts.authPrefix ? [key, this.opts.authPrefix + key] : [key]) {
      this.secrets.delete(s); // re-insert as the newest
      this.secrets.add(s);
    }
    // A key function may rotate often: remember the recent keys only (a Set keeps insertion order).
    while (this.secrets.size > MAX_REMEMBERED_SECRETS) {
      this.secrets.delete(this.secrets.values().next().value as string);
    }
  }

  private redact(text: string): string {
    return redactText(text, this.secrets);
  }

  async send(req: PreparedRequest, call: CallOptions = {}): Promise<TransportResult> {
    const { signal } = call;
    const timeoutMs = call.timeoutMs ?? this.opts.timeoutMs;
    const ctx: RequestContext = { endpoint: req.endpoint, method: req.method, path: req.path };
    const idempotencyKey =
      req.kind === 'create' && call.idempotencyKey !== false
        ? (call.idempotencyKey ?? newIdempotencyKey())
        : undefined;
    const { maxAttempts } = this.opts.retry;
    const aborted = (attempts: number) =>
      new EoAbortError({ ...ctx, attempts, message: `${req.method} ${req.path}: aborted` });

    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw aborted(attempt - 1);
      let release: () => void;
      try {
        release = await this.semaphore.acquire(signal);
      } catch {
        throw aborted(attempt - 1);
      }
      const started = now();
      let outcome: AttemptOutcome;
      try {
        outcome = await this.attempt(req, ctx, attempt, idempotencyKey, timeoutMs, signal);
      } finally {
        release();
      }
      const durationMs = now() - started;
      const base = { endpoint: req.endpoint, method: req.method, path: req.path, attempt };
      if (outcome.ok) {
        this.emitResponse({ ...base, status: outcome.status, durationMs, timing: outcome.timing });
        return {
          status: outcome.status,
          json: outcome.json,
          text: outcome.text,
          headers: outcome.headers,
          attempts: attempt,
          timing: outcome.timing ?? { waitMs: durationMs, bodyMs: 0, bytes: outcome.text.length },
        };
      }
      const error = outcome.error;
      error.attempts = attempt;
      // A Retry-After the caller schedules itself (`waitRetryAfter: false`) ends the call now.
      const scheduled =
        call.waitRetryAfter === false &&
        error instanceof EoApiError &&
        error.retryAfterMs !== undefined;
      const retry =
        this.mayRepeat(req, idempotencyKey) &&
        error.retryable &&
        attempt < maxAttempts &&
        !scheduled;
      const delay = retry
        ? error instanceof EoApiError && error.retryAfterMs !== undefined
          ? error.retryAfterMs
          : backoffDelay(attempt, this.opts.retry, this.opts.random)
        : undefined;
      this.emitResponse({
        ...base,
        status: outcome.status,
        durationMs,
        error: error.kind,
        retryInMs: delay,
      });
      if (delay === undefined) throw error;
      try {
        await abortableSleep(this.opts.sleep, delay, signal);
      } catch (e) {
        if (e === ABORTED || signal?.aborted) throw aborted(attempt);
        throw e;
      }
    }
  }

  /**
   * One attempt at an endpoint that answers with bytes (the index PNG): a concurrency slot, the
   * key, the timeout and the caller's signal like every call, but no retries (its callers, the
   * mirror's imagery pass, try again on their next run) and no JSON: any status comes back with
   * the headers, and the body only on 2xx (otherwise it is discarded unread).
   */
  async sendBytes(
    req: { endpoint: AnyEndpointId | undefined; method: string; path: string; body: string },
    call: CallOptions = {},
  ): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
    const { signal } = call;
    const timeoutMs = call.timeoutMs ?? this.opts.timeoutMs;
    const ctx: RequestContext = { endpoint: req.endpoint, method: req.method, path: req.path };
    const aborted = () =>
      new EoAbortError({ ...ctx, attempts: 0, message: `${req.method} ${req.path}: aborted` });
    let release: () => void;
    try {
      release = await this.semaphore.acquire(signal);
    } catch {
      throw aborted();
    }
    const deadline = attemptDeadline(timeoutMs, signal);
    try {
      const key = await this.resolveKey();
      const res = await this.opts.fetch(this.opts.baseUrl + req.path, {
        method: req.method,
        headers: {
          accept: 'image/png',
          authorization: this.opts.authPrefix + key,
          'content-type': 'application/json',
        },
        body: req.body,
        signal: deadline.signal,
      });
      if (res.status < 200 || res.status > 299) {
        await res.body?.cancel();
        return { status: res.status, headers: res.headers, bytes: new Uint8Array(0) };
      }
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, headers: res.headers, bytes };
    } catch (e) {
      if (signal?.aborted) throw aborted();
      if (deadline.timedOut())
        throw new EoTimeoutError({
          ...ctx,
          timeoutMs,
          message: `${req.method} ${req.path}: no complete response within ${timeoutMs} ms`,
        });
      throw new EoNetworkError({
        ...ctx,
        cause: e,
        message: this.redact(`${req.method} ${req.path}: network error: ${networkReason(e)}`),
      });
    } finally {
      deadline.dispose();
      release();
    }
  }

  /**
   * Reads and searches change nothing: always safe to repeat. A create that may have reached the
   * service: only with a key it honours (asked after each attempt: that attempt's answer may be
   * what taught us).
   */
  private mayRepeat(req: PreparedRequest, idempotencyKey: string | undefined): boolean {
    return req.kind !== 'create' || this.capabilities.mayResendCreate(idempotencyKey);
  }

  private async resolveKey(): Promise<string> {
    const k = this.opts.apiKey;
    const key = typeof k === 'function' ? await k() : k;
    this.addSecret(key);
    return key;
  }

  private async attempt(
    req: PreparedRequest,
    ctx: RequestContext,
    attempt: number,
    idempotencyKey: string | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<AttemptOutcome> {
    const key = await this.resolveKey();
    const headers: Record<string, string> = {
      accept: 'application/json',
      // Pages are ~15× smaller as brotli: ask for it explicitly (Node's fetch offers only
      // gzip and deflate by itself). Every runtime we run in (Node 20, Electron main and its
      // utility process: undici's fetch) decodes br and gzip before we read the text.
      'accept-encoding': ACCEPT_ENCODING,
      authorization: this.opts.authPrefix + key,
    };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    this.emitRequest({
      endpoint: req.endpoint,
      method: req.method,
      path: req.path,
      attempt,
      headers: { ...headers, authorization: '[redacted]' },
    });

    const deadline = attemptDeadline(timeoutMs, signal);
    let response: Response | undefined;
    try {
      const sentAt = now();
      response = await this.opts.fetch(this.opts.baseUrl + req.path, {
        method: req.method,
        headers,
        body: req.body,
        signal: deadline.signal,
      });
      this.capabilities.learn(response.headers);
      const headAt = now();
      const text = await response.text();
      const length = Number(response.headers.get('content-length') ?? NaN);
      const timing = {
        waitMs: headAt - sentAt,
        bodyMs: now() - headAt,
        bytes: text.length,
        wireBytes: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
      };
      const outcome = this.interpret(req, ctx, response, text);
      return outcome.ok ? { ...outcome, timing } : outcome;
    } catch (e) {
      const status = response?.status;
      if (signal?.aborted) {
        return {
          ok: false,
          status,
          error: new EoAbortError({ ...ctx, message: `${req.method} ${req.path}: aborted` }),
        };
      }
      if (deadline.timedOut()) {
        return {
          ok: false,
          status,
          error: new EoTimeoutError({
            ...ctx,
            timeoutMs,
            message: `${req.method} ${req.path}: no complete response within ${timeoutMs} ms`,
          }),
        };
      }
      const where = response ? 'response body cut off' : 'network error';
      return {
        ok: false,
        status,
        error: new EoNetworkError({
          ...ctx,
          cause: e,
          message: this.redact(`${req.method} ${req.path}: ${where}: ${networkReason(e)}`),
        }),
      };
    } finally {
      deadline.dispose();
    }
  }

  /** A complete response: success JSON, or the service's error as an EoApiError. */
  private interpret(
    req: PreparedRequest,
    ctx: RequestContext,
    res: Response,
    text: string,
  ): AttemptOutcome {
    const status = res.status;
    if (status >= 200 && status < 300) {
      try {
        return { ok: true, status, json: JSON.parse(text), text, headers: res.headers };
      } catch {
        return { ok: false, status, error: this.notJson(req, ctx, res, text) };
      }
    }
    let body: unknown = text === '' ? undefined : text;
    try {
      body = JSON.parse(text);
    } catch {
      // Plain text (a proxy's HTML page, "Bad Gateway") stays a string.
    }
    body = redactValue(body, this.secrets);
    const read = readErrorBody(body);
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'), Date.now());
    const retryAfterMs =
      retryAfter === undefined ? undefined : Math.min(retryAfter, this.opts.retry.maxRetryAfterMs);
    const reason = errorReason(read, res.statusText || 'no error message');
    const code = read.code ? ` ${read.code}` : '';
    return {
      ok: false,
      status,
      error: new EoApiError({
        ...ctx,
        status,
        code: read.code,
        details: read.details,
        rawDetails: read.rawDetails,
        body,
        retryAfterMs,
        message: this.redact(`${req.method} ${req.path} failed with ${status}${code}: ${reason}`),
      }),
    };
  }

  /** A 2xx whose body is not JSON: what arrived, named (content type, a short excerpt), kept. */
  private notJson(
    req: PreparedRequest,
    ctx: RequestContext,
    res: Response,
    text: string,
  ): EoResponseError {
    const status = res.status;
    // Only now look at why: a blank body or something else (no trim() copy of big bodies).
    const type = res.headers.get('content-type') ?? 'no content type';
    const blank = /^\s*$/.test(text);
    const excerpt = blank
      ? ''
      : `: ${JSON.stringify(text.slice(0, 80))}${text.length > 80 ? '...' : ''}`;
    // Starts as JSON and does not parse: JSON cut short (what a 200 whose body a gateway or a
    // cache cut looks like). Transient: retried like a body cut by the network.
    const cutOff = /^\s*[[{]/.test(text);
    const what = blank
      ? 'an empty body'
      : cutOff
        ? `a body cut off: ${text.length} characters of JSON that end before it does${excerpt}`
        : `a body that is not JSON (${type})${excerpt}`;
    return new EoResponseError({
      ...ctx,
      status,
      cutOff,
      message: this.redact(
        `${req.method} ${req.path}: unusable response: ${status} with ${what} (expected JSON)`,
      ),
      body: this.redact(text.length > MAX_KEPT_TEXT ? text.slice(0, MAX_KEPT_TEXT) : text),
    });
  }

  private emitRequest(e: Parameters<NonNullable<ResolvedOptions['onRequest']>>[0]): void {
    try {
      this.opts.onRequest?.(e);
    } catch {
      // A logging hook must never break a request.
    }
  }

  private emitResponse(e: Parameters<NonNullable<ResolvedOptions['onResponse']>>[0]): void {
    try {
      this.opts.onResponse?.(e);
    } catch {
      // A logging hook must never break a request.
    }
  }
}
