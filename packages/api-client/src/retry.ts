/** Retry timing: exponential backoff with full jitter, and Retry-After headers. */
import type { RetryOptions } from './options';

/**
 * Wait before attempt `failedAttempt + 1`: uniformly random in [0, min(max, base * 2^(n-1))]
 * ("full jitter"), so clients that failed together do not retry together.
 */
export function backoffDelay(
  failedAttempt: number,
  retry: Required<RetryOptions>,
  random: () => number,
): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (failedAttempt - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(r * ceiling);
}

/**
 * A Retry-After header as a delay in ms: delta-seconds (`120`) or an HTTP-date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (value == null) return undefined;
  const s = value.trim();
  if (s === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const t = parseHttpDate(s);
  return t === undefined ? undefined : Math.max(0, t - nowMs);
}

/** An HTTP-date (`Date`, `Retry-After`) in ms since the epoch; undefined when absent or unreadable. */
export function parseHttpDate(value: string | null | undefined): number | undefined {
  // Only something that looks like an HTTP-date: Date.parse alone accepts odd strings like "1".
  if (value == null || !/[a-z]{3}/i.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
