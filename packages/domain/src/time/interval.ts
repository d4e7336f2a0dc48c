/**
 * Interval syntax shared by the catalog search `datetime` field and the range filters our
 * service chose for list endpoints (order items' `created_at` and `area`, AOIs' `created_at`
 * and `updated_at`):
 *
 *   `X`        exactly X
 *   `A/B`      A <= value <= B (closed)
 *   `../B`     value <= B      (open start)
 *   `A/..`     value >= A      (open end)
 *
 * Rejected with a precise reason: `/`, `../..`, an empty side (`A/`), more than one `/`,
 * and a reversed interval (A after B).
 */
import { tryParseRfc3339 } from './codecs';
import type { Instant } from './instant';

export interface Range<T> {
  /** Inclusive lower bound, or null when open. */
  readonly start: T | null;
  /** Inclusive upper bound, or null when open. */
  readonly end: T | null;
}

export type RangeResult<T> = { ok: true; value: Range<T> } | { ok: false; message: string };

type EndParser<T> = (s: string) => { ok: true; value: T } | { ok: false; message: string };

export function parseRange<T extends number>(
  input: string,
  parseEnd: EndParser<T>,
): RangeResult<T> {
  const parts = input.split('/');
  if (parts.length === 1) {
    if (input === '..') return { ok: false, message: '".." alone is not a value or an interval' };
    const v = parseEnd(input);
    return v.ok ? { ok: true, value: { start: v.value, end: v.value } } : v;
  }
  if (parts.length > 2) {
    return { ok: false, message: `an interval has exactly one "/", found ${parts.length - 1}` };
  }
  const [a, b] = parts as [string, string];
  if (a === '' || b === '') {
    return {
      ok: false,
      message:
        'an interval side is empty; write ".." for an open end (e.g. "../2024-01-01T00:00:00Z")',
    };
  }
  if (a === '..' && b === '..') {
    return { ok: false, message: '"../.." is not an interval: at least one end must be given' };
  }
  let start: T | null = null;
  let end: T | null = null;
  if (a !== '..') {
    const r = parseEnd(a);
    if (!r.ok) return { ok: false, message: `interval start: ${r.message}` };
    start = r.value;
  }
  if (b !== '..') {
    const r = parseEnd(b);
    if (!r.ok) return { ok: false, message: `interval end: ${r.message}` };
    end = r.value;
  }
  if (start !== null && end !== null && start > end) {
    return { ok: false, message: `the interval is reversed: "${a}" is after "${b}"` };
  }
  return { ok: true, value: { start, end } };
}

function parseInstantEnd(s: string) {
  const r = tryParseRfc3339(s);
  return r.ok
    ? ({ ok: true, value: r.value } as const)
    : ({ ok: false, message: r.error.message } as const);
}

function parseNumberEnd(s: string) {
  const n = Number(s);
  if (s.trim() === '' || !Number.isFinite(n)) {
    return { ok: false, message: `${JSON.stringify(s)} is not a number` } as const;
  }
  return { ok: true, value: n } as const;
}

/** RFC 3339 instant or interval, as in the catalog search `datetime` field. */
export function parseInstantRange(input: string): RangeResult<Instant> {
  return parseRange(input, parseInstantEnd);
}

/** A number or a numeric interval, e.g. `100/5000`, `../5000`. */
export function parseNumberRange(input: string): RangeResult<number> {
  return parseRange(input, parseNumberEnd);
}

export function inRange<T extends number>(value: T, range: Range<T>): boolean {
  return (
    (range.start === null || value >= range.start) && (range.end === null || value <= range.end)
  );
}
