/**
 * Readable values for people: percentages, angles, distances, byte sizes and timestamps in the
 * user's local time. Every function accepts the nullish values stored records may hold and
 * returns an em dash for them, so templates need no guards.
 */
import { isoUtc, timeDisplay } from './time-display';

export const MISSING = '—';

type Maybe<T> = T | null | undefined;

function num(v: Maybe<number>): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * Formatters made once per set of options (`key`): making one costs tens of microseconds, a list
 * of records formats hundreds of values, and `toLocaleString` makes a new one on every call.
 */
function cached<F>(made: Map<string, F>, key: string, make: () => F): F {
  let f = made.get(key);
  if (f === undefined) made.set(key, (f = make()));
  return f;
}

const decimals = new Map<string, Intl.NumberFormat>();
const counts = new Map<string, Intl.NumberFormat>();
const instants = new Map<string, Intl.DateTimeFormat>();
const relativeTimes = new Map<string, Intl.RelativeTimeFormat>();

function fixed(v: number, digits: number): string {
  const format = cached(
    decimals,
    String(digits),
    () =>
      new Intl.NumberFormat(undefined, { maximumFractionDigits: digits, minimumFractionDigits: 0 }),
  );
  return format.format(v);
}

/** Cloud cover and other 0..100 values: "12.5 %". */
export function formatPercent(v: Maybe<number>, digits = 1): string {
  return num(v) ? `${fixed(v, digits)} %` : MISSING;
}

/** Angles: "23.4°". */
export function formatDegrees(v: Maybe<number>, digits = 1): string {
  return num(v) ? `${fixed(v, digits)}°` : MISSING;
}

/** Ground distances: "0.5 m", "30 m", "1.2 km". */
export function formatMeters(v: Maybe<number>): string {
  if (!num(v)) return MISSING;
  if (Math.abs(v) >= 1000) return `${fixed(v / 1000, 2)} km`;
  return `${fixed(v, v < 10 ? 2 : 1)} m`;
}

/** Areas in square kilometres (catalog record `area`). */
export function formatSquareKm(v: Maybe<number>): string {
  return num(v) ? `${fixed(v, 2)} km²` : MISSING;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Storage sizes with 1024-based units: "1.5 MB". */
export function formatBytes(v: Maybe<number>): string {
  if (!num(v) || v < 0) return MISSING;
  let n = v;
  let u = 0;
  while (n >= 1024 && u < BYTE_UNITS.length - 1) {
    n /= 1024;
    u++;
  }
  return `${fixed(n, u === 0 ? 0 : 1)} ${BYTE_UNITS[u]}`;
}

export interface TimeFormatOptions {
  /** IANA zone; default the user's own (tests pin one). */
  readonly timeZone?: string;
  readonly locale?: string;
}

/**
 * A timestamp in local time with its zone, e.g. "17 May 2024, 10:30 CEST", or in UTC as
 * ISO 8601 with a 24-hour clock when the user chose so (`time-display.ts`). Unparseable input
 * is shown as given rather than hidden, so a bad stored value is still visible.
 */
export function formatLocalDateTime(iso: Maybe<string>, opts: TimeFormatOptions = {}): string {
  return formatInstant(iso, opts, true);
}

/** Date only, local: "17 May 2024". */
export function formatLocalDate(iso: Maybe<string>, opts: TimeFormatOptions = {}): string {
  return formatInstant(iso, opts, false);
}

const DATE_PARTS = { year: 'numeric', month: 'short', day: 'numeric' } as const;
const TIME_PARTS = { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' } as const;

/** `iso` as a local date, with its time of day and zone when `withTime`. */
function formatInstant(iso: Maybe<string>, opts: TimeFormatOptions, withTime: boolean): string {
  if (!iso) return MISSING;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  // The user's choice (Settings › Times), unless the caller pins a zone.
  if (!opts.timeZone && timeDisplay.value === 'iso-utc') return isoUtc(t, withTime);
  // By locale and zone; the computer's own zone also by its offset at `t`, so a zone changed
  // while the app runs (a flight) is not formatted in the old one.
  const local = opts.timeZone ? null : new Date(t).getTimezoneOffset();
  const key = JSON.stringify([withTime, opts.locale, opts.timeZone, local]);
  const format = cached(
    instants,
    key,
    () =>
      new Intl.DateTimeFormat(opts.locale, {
        ...DATE_PARTS,
        ...(withTime ? TIME_PARTS : {}),
        ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
      }),
  );
  return format.format(t);
}

/** "5 minutes ago", "in 2 hours", relative to `now` (ms). */
export function formatRelative(iso: Maybe<string>, now: number, locale?: string): string {
  if (!iso) return MISSING;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const seconds = Math.round((t - now) / 1000);
  const rtf = cached(
    relativeTimes,
    locale ?? '',
    () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
  );
  const abs = Math.abs(seconds);
  // Clocks of the backend and the page differ by a little: never "in 1 second".
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}

/** A count with thousands separators: "12,345". */
export function formatCount(v: Maybe<number>): string {
  return num(v) ? cached(counts, '', () => new Intl.NumberFormat()).format(v) : MISSING;
}

/**
 * `<input type="date">` value (local calendar day) to the instant its day starts or ends, as
 * RFC 3339 UTC: the filter's date range means the user's days, not UTC days.
 */
/**
 * A calendar day (`YYYY-MM-DD`) as the first or last millisecond of that UTC day (the catalog's
 * dates are UTC days, whatever the computer's zone), or null when it is no real day.
 */
export function utcDayToIso(day: string, edge: 'start' | 'end'): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const t = edge === 'start' ? Date.UTC(y, mo, d) : Date.UTC(y, mo, d, 23, 59, 59, 999);
  const date = new Date(t);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo || date.getUTCDate() !== d) {
    return null;
  }
  return date.toISOString();
}

export function localDayToIso(day: string, edge: 'start' | 'end'): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date =
    edge === 'start' ? new Date(y, mo, d, 0, 0, 0, 0) : new Date(y, mo, d, 23, 59, 59, 999);
  if (date.getFullYear() !== y || date.getMonth() !== mo || date.getDate() !== d) return null;
  return date.toISOString();
}
