/**
 * Codecs for the spec's four timestamp layouts (part 2, "Conventions"):
 *
 * | codec             | layout                              | used by                                   |
 * |-------------------|-------------------------------------|-------------------------------------------|
 * | `isoTimestamp`    | `2024-01-02T03:04:05.123Z` / `+00:00` | orders, order items, catalog records, deliveries |
 * | `microTimestamp`  | `2024-01-02 03:04:05.123456+00:00`  | AOIs, assets, visualizations, indices     |
 * | `taskDate`        | `02-01-2024` (day-month-year)        | task start_date / end_date                |
 * | `assetDate`       | `2024-01-02` (year-month-day)        | asset date                                |
 *
 * Each parses to an `Instant` (µs since epoch) or a `CalendarDate`, and formats back. The
 * round trip is exact: `format(parse(s), styleOf(s)) === s` for every string `parse` accepts,
 * and `parse(format(v, style)) === v` for every value (to the style's precision). For instants
 * this holds to the microsecond within 1684-07-28 .. 2255-06-05 (|µs| < 2^53) and to the second for 0001..9999 (see
 * `Instant`).
 * `rfc3339` is the lenient parser for search inputs (any offset), which never formats.
 */
import {
  type CalendarDate,
  type Instant,
  TimestampFormatError,
  instantFromParts,
  invalidDateReason,
  invalidTimeReason,
  pad,
  partsFromInstant,
  civilFromDays,
  daysFromCivil,
} from './instant';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: TimestampFormatError };

export interface Codec<T, S> {
  /** Human name of the layout, used in error messages. */
  readonly layout: string;
  /** An example string of the layout. */
  readonly example: string;
  tryParse(input: string): ParseResult<T>;
  /**
   * Exactly `tryParse(input).ok`, without allocating for a valid input: response schemas check
   * every timestamp of every record, and allocation there is what makes big pages slow (it
   * triggers young-generation collections that copy the whole page being validated).
   */
  isValid(input: string): boolean;
  parse(input: string): T;
  /** The formatting style a string was written in, so it can be reproduced exactly. */
  styleOf(input: string): S;
  format(value: T, style?: Partial<S>): string;
}

function makeCodec<T, S>(spec: {
  layout: string;
  example: string;
  tryParse(input: string): ParseResult<T>;
  isValid(input: string): boolean;
  styleOf(input: string): S;
  format(value: T, style?: Partial<S>): string;
}): Codec<T, S> {
  return {
    ...spec,
    parse(input) {
      const r = spec.tryParse(input);
      if (!r.ok) throw r.error;
      return r.value;
    },
  };
}

/** The number written by `n` ASCII digits of `s` at `at` (the layout regex has checked them). */
function digitsAt(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 10 + (s.charCodeAt(i) - 48);
  return v;
}

/** `isValid` of a layout whose year, month and day sit at fixed positions. */
function validDateAt(s: string, y: number, m: number, d: number): boolean {
  return invalidDateReason(digitsAt(s, y, 4), digitsAt(s, m, 2), digitsAt(s, d, 2)) === undefined;
}

/** `isValid` of the two instant layouts: date at 0/5/8, time at 11/14/17. */
function validInstantLayout(re: RegExp, s: string): boolean {
  return (
    re.test(s) &&
    validDateAt(s, 0, 5, 8) &&
    invalidTimeReason(digitsAt(s, 11, 2), digitsAt(s, 14, 2), digitsAt(s, 17, 2)) === undefined
  );
}

function fail<T>(layout: string, input: string, reason: string): ParseResult<T> {
  return { ok: false, error: new TimestampFormatError(layout, input, reason) };
}

function fractionToMicros(fraction: string | undefined): number {
  if (!fraction) return 0;
  return Number(fraction.padEnd(6, '0'));
}

function formatFraction(micro: number, digits: number): string {
  if (digits === 0) return '';
  const full = pad(micro, 6);
  return `.${full.slice(0, digits)}`;
}

// ---------------------------------------------------------------------------------------------
// ISO 8601 with Z or +00:00

export interface IsoStyle {
  /** How UTC is written. */
  readonly offset: 'Z' | '+00:00';
  /** Fraction digits written after the seconds (0 = none). */
  readonly fractionDigits: 0 | 1 | 2 | 3 | 4 | 5 | 6;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|\+00:00)$/;
const ISO_LAYOUT = 'ISO 8601 UTC timestamp (YYYY-MM-DDTHH:MM:SS[.ffffff] followed by Z or +00:00)';

function checkParts(
  layout: string,
  input: string,
  m: RegExpExecArray,
): ParseResult<Instant> | undefined {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const reason =
    invalidDateReason(year!, month!, day!) ?? invalidTimeReason(hour!, minute!, second!);
  return reason ? fail(layout, input, reason) : undefined;
}

/** Groups 1-7 of a layout regex (y, m, d, h, min, s, fraction) as an instant at `offsetMinutes`. */
function instantFromMatch(m: RegExpExecArray, offsetMinutes = 0): Instant {
  return instantFromParts(
    {
      year: Number(m[1]),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: Number(m[4]),
      minute: Number(m[5]),
      second: Number(m[6]),
      micro: fractionToMicros(m[7]),
    },
    offsetMinutes,
  );
}

/** Parse with a UTC layout regex whose groups 1-7 are the date-time parts. */
function parseInstantLayout(
  re: RegExp,
  layout: string,
  hint: string,
  input: string,
): ParseResult<Instant> {
  const m = re.exec(input);
  if (!m) return fail(layout, input, hint);
  return checkParts(layout, input, m) ?? { ok: true, value: instantFromMatch(m) };
}

function matchForStyle(re: RegExp, layout: string, input: string): RegExpExecArray {
  const m = re.exec(input);
  if (!m)
    throw new TimestampFormatError(layout, input, 'cannot read the style of an invalid timestamp');
  return m;
}

/** 2^53: below it, the instant's millisecond is exact integer arithmetic (and a valid Date). */
const FAST_LIMIT = 2 ** 53;

/**
 * `isoTimestamp.format` for instants from 1970 to 2255 through `Date.toISOString` (the same
 * text: UTC, four-digit year, milliseconds truncated), about ten times cheaper than building it
 * from its parts: the mirror formats instants per record it writes (a packed record's context).
 * Null outside that range: `isoFromParts` formats it (`format-fast.spec.ts` holds the two
 * equal).
 */
function isoFast(
  instant: Instant,
  style: Partial<IsoStyle> | undefined,
  offset: IsoStyle['offset'],
): string | null {
  if (!Number.isInteger(instant) || instant < 0 || instant >= FAST_LIMIT) return null;
  const micro = instant % 1000;
  const text = new Date((instant - micro) / 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const ms = text.charCodeAt(20) !== 48 || text.charCodeAt(21) !== 48 || text.charCodeAt(22) !== 48;
  const digits = style?.fractionDigits ?? (micro !== 0 ? 6 : ms ? 3 : 0);
  let out: string;
  if (digits === 0) out = text.slice(0, 19);
  else if (digits <= 3) out = text.slice(0, 20 + digits);
  else out = text.slice(0, 23) + pad(micro, 3).slice(0, digits - 3);
  return out + offset;
}

/**
 * `isoTimestamp.format` for any instant, from its calendar parts: what `isoFast` must match
 * (exported for that test only).
 */
export function isoFromParts(
  instant: Instant,
  style: Partial<IsoStyle> | undefined,
  offset: IsoStyle['offset'],
): string {
  const p = partsFromInstant(instant);
  // Default: as many digits as needed (0, 3 or 6), like most JSON serialisers.
  const digits = style?.fractionDigits ?? (p.micro === 0 ? 0 : p.micro % 1000 === 0 ? 3 : 6);
  return (
    `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}` +
    `T${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}` +
    formatFraction(p.micro, digits) +
    offset
  );
}

export const isoTimestamp: Codec<Instant, IsoStyle> = makeCodec({
  layout: ISO_LAYOUT,
  example: '2024-05-17T09:30:00.123456Z',
  tryParse: (input) =>
    parseInstantLayout(
      ISO_RE,
      ISO_LAYOUT,
      'expected e.g. 2024-05-17T09:30:00Z or 2024-05-17T09:30:00.123+00:00',
      input,
    ),
  isValid: (input) => validInstantLayout(ISO_RE, input),
  styleOf(input) {
    const m = matchForStyle(ISO_RE, ISO_LAYOUT, input);
    return {
      offset: m[8] as IsoStyle['offset'],
      fractionDigits: (m[7]?.length ?? 0) as IsoStyle['fractionDigits'],
    };
  },
  format(instant, style) {
    const offset = style?.offset ?? 'Z';
    return isoFast(instant, style, offset) ?? isoFromParts(instant, style, offset);
  },
});

// ---------------------------------------------------------------------------------------------
// YYYY-MM-DD HH:MM:SS.ffffff+00:00 (Python's str(datetime) in UTC)

export interface MicroStyle {
  /** Python omits `.ffffff` when the microseconds are zero; we reproduce either form. */
  readonly fraction: boolean;
}

const MICRO_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{6}))?\+00:00$/;
const MICRO_LAYOUT = 'timestamp YYYY-MM-DD HH:MM:SS.ffffff+00:00';

export const microTimestamp: Codec<Instant, MicroStyle> = makeCodec({
  layout: MICRO_LAYOUT,
  example: '2024-05-17 09:30:00.123456+00:00',
  tryParse: (input) =>
    parseInstantLayout(
      MICRO_RE,
      MICRO_LAYOUT,
      'expected e.g. 2024-05-17 09:30:00.123456+00:00',
      input,
    ),
  isValid: (input) => validInstantLayout(MICRO_RE, input),
  styleOf(input) {
    const m = matchForStyle(MICRO_RE, MICRO_LAYOUT, input);
    return { fraction: m[7] !== undefined };
  },
  format(instant, style) {
    const p = partsFromInstant(instant);
    const fraction = style?.fraction ?? true;
    return (
      `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}` +
      ` ${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}` +
      (fraction ? `.${pad(p.micro, 6)}` : '') +
      '+00:00'
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Calendar dates

type NoStyle = Record<string, never>;

function dateCodec(
  layout: string,
  example: string,
  re: RegExp,
  order: [number, number, number],
  /** Where year (4 digits), month and day (2 each) start, for `isValid`. */
  at: [number, number, number],
  render: (d: CalendarDate) => string,
): Codec<CalendarDate, NoStyle> {
  return makeCodec({
    layout,
    example,
    tryParse(input) {
      const m = re.exec(input);
      if (!m) return fail(layout, input, `expected e.g. ${example}`);
      const [year, month, day] = order.map((i) => Number(m[i]));
      const reason = invalidDateReason(year!, month!, day!);
      if (reason) return fail(layout, input, reason);
      return { ok: true, value: { year: year!, month: month!, day: day! } };
    },
    isValid: (input) => re.test(input) && validDateAt(input, ...at),
    styleOf: () => ({}),
    format: (d) => {
      const reason = invalidDateReason(d.year, d.month, d.day);
      if (reason) throw new RangeError(`cannot format an impossible date: ${reason}`);
      return render(d);
    },
  });
}

/** Task start_date / end_date: day-month-year with hyphens, e.g. `17-05-2024`. */
export const taskDate = dateCodec(
  'task date DD-MM-YYYY',
  '17-05-2024',
  /^(\d{2})-(\d{2})-(\d{4})$/,
  [3, 2, 1],
  [6, 3, 0],
  (d) => `${pad(d.day, 2)}-${pad(d.month, 2)}-${pad(d.year, 4)}`,
);

/** Asset `date`: year-month-day, e.g. `2024-05-17`. */
export const assetDate = dateCodec(
  'asset date YYYY-MM-DD',
  '2024-05-17',
  /^(\d{4})-(\d{2})-(\d{2})$/,
  [1, 2, 3],
  [0, 5, 8],
  (d) => `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`,
);

/** Days since epoch, for comparing calendar dates. */
export function calendarDateToDays(d: CalendarDate): number {
  return daysFromCivil(d.year, d.month, d.day);
}
export function calendarDateFromInstant(instant: Instant): CalendarDate {
  return civilFromDays(Math.floor(instant / 86_400_000_000));
}

// ---------------------------------------------------------------------------------------------
// RFC 3339 (search inputs): any numeric offset or Z, `T` or `t`, up to microsecond precision.

const RFC3339_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;
const RFC3339_LAYOUT = 'RFC 3339 date-time';

export function tryParseRfc3339(input: string): ParseResult<Instant> {
  const m = RFC3339_RE.exec(input);
  if (!m) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(input)) {
      return fail(
        RFC3339_LAYOUT,
        input,
        'a date alone is not a date-time; write e.g. 2024-05-17T00:00:00Z',
      );
    }
    return fail(
      RFC3339_LAYOUT,
      input,
      'expected e.g. 2024-05-17T09:30:00Z or 2024-05-17T11:30:00+02:00',
    );
  }
  const bad = checkParts(RFC3339_LAYOUT, input, m);
  if (bad) return bad;
  if (m[7] && m[7].length > 6) {
    return fail(
      RFC3339_LAYOUT,
      input,
      'more than 6 fraction digits (sub-microsecond precision is not supported)',
    );
  }
  let offsetMinutes = 0;
  const off = m[8]!;
  if (off !== 'Z' && off !== 'z') {
    const sign = off.startsWith('-') ? -1 : 1;
    const oh = Number(off.slice(1, 3));
    const om = Number(off.slice(4, 6));
    if (oh > 23 || om > 59) return fail(RFC3339_LAYOUT, input, `offset ${off} is out of range`);
    offsetMinutes = sign * (oh * 60 + om);
  }
  return { ok: true, value: instantFromMatch(m, offsetMinutes) };
}

export function parseRfc3339(input: string): Instant {
  const r = tryParseRfc3339(input);
  if (!r.ok) throw r.error;
  return r.value;
}
