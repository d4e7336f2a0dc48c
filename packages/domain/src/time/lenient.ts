/**
 * Lenient readers for the indexed columns of the local mirror. A real service sends timestamps,
 * numbers and ids in more shapes than our spec allows; the mirror keeps each record's JSON as
 * received and copies into its indexed columns whatever can be read without guessing. These
 * readers never throw: they return the value, or null when there is nothing unambiguous to read.
 *
 * The strict codecs (`codecs.ts`) stay what the reference service and its tests use.
 *
 * `readInstant` accepts, and returns µs since the epoch for:
 * - RFC 3339 / ISO 8601 instants: `T`, `t` or a space between date and time; seconds optional;
 *   0 to 9 (or more) fraction digits after `.` or `,`, rounded half up to the microsecond;
 *   offset `Z`, `±HH:MM`, `±HHMM` or `±HH`, optionally after a space (Python's `str(datetime)`);
 * - no offset at all: read as UTC (a service that drops the zone almost always means UTC);
 * - a date alone (`2024-05-17`): midnight UTC of that day;
 * - epoch numbers (a JSON number or a numeric string): magnitude below 1e11 is seconds, from
 *   1e11 up is milliseconds (1e11 s is year 5138; 1e11 ms is 1973-03-03, so milliseconds before
 *   March 1973 would be read as seconds: no service we know sends those);
 * - `null`, `undefined`, `""` (or blanks): null.
 * Anything else (impossible dates, hours past 23, leap seconds, offsets past 23:59, years
 * outside 0001..9999, other types) is null.
 */
import { type Instant, instantFromParts, invalidDateReason, invalidTimeReason } from './instant';

const LENIENT_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?: ?([Zz]|[+-]\d{2}(?::?\d{2})?))?)?$/;
const NUMERIC_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Epoch magnitudes from here up are milliseconds, below are seconds. */
export const EPOCH_MILLIS_FROM = 1e11;
/** 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z in µs: the range strings can name. */
const MIN_US = -62_135_596_800_000_000;
const END_US = 253_402_300_800_000_000;

/** True for what the readers treat as "nothing sent": null, undefined, a blank string. */
export function isBlank(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
  );
}

function fromEpoch(n: number): Instant | null {
  if (!Number.isFinite(n)) return null;
  const us = Math.round(Math.abs(n) < EPOCH_MILLIS_FROM ? n * 1e6 : n * 1e3);
  return us >= MIN_US && us < END_US ? us : null;
}

/** Fraction digits as µs, rounded half up (may be 1 000 000: the carry is arithmetic). */
function fractionMicros(f: string | undefined): number {
  if (!f) return 0;
  if (f.length <= 6) return Number(f.padEnd(6, '0'));
  return Number(f.slice(0, 6)) + (f.charCodeAt(6) >= 53 /* '5' */ ? 1 : 0);
}

function offsetMinutes(off: string | undefined): number | null {
  if (off === undefined || off === 'Z' || off === 'z') return 0;
  const sign = off.charCodeAt(0) === 45 /* '-' */ ? -1 : 1;
  const digits = off.slice(1).replace(':', '');
  const h = Number(digits.slice(0, 2));
  const m = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return h > 23 || m > 59 ? null : sign * (h * 60 + m);
}

function fromString(s: string): Instant | null {
  const m = LENIENT_RE.exec(s);
  if (!m) return NUMERIC_RE.test(s) ? fromEpoch(Number(s)) : null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (invalidDateReason(year, month, day) || invalidTimeReason(hour, minute, second)) return null;
  const offset = offsetMinutes(m[8]);
  if (offset === null) return null;
  return instantFromParts(
    { year, month, day, hour, minute, second, micro: fractionMicros(m[7]) },
    offset,
  );
}

/** A timestamp in any layout listed above, as µs; null when absent or unreadable. */
export function readInstant(value: unknown): Instant | null {
  if (typeof value === 'string') {
    const s = value.trim();
    return s === '' ? null : fromString(s);
  }
  if (typeof value === 'number') return fromEpoch(value);
  return null;
}

/** A finite number, or a string that is exactly one (`"12.5"`, `" 3e2 "`); else null. */
export function readNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (!NUMERIC_RE.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/**
 * A record id: a non-empty string as is, a finite number as its decimal string (`42` → `"42"`);
 * anything else (null, `""`, objects) is null: no usable id.
 */
export function readId(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A non-empty string, else null (`""` means "not set" in a real service's answers). */
export function readText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
