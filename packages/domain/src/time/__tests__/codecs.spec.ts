import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CalendarDate,
  type IsoStyle,
  TimestampFormatError,
  assetDate,
  calendarDateFromInstant,
  calendarDateToDays,
  daysInMonth,
  instantFromParts,
  isoTimestamp,
  microTimestamp,
  parseRfc3339,
  taskDate,
  tryParseRfc3339,
} from '../../index';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

// --- generators ---------------------------------------------------------------------------------

/** A real calendar date; the day is clamped to the month, which favours month ends. */
const dateArb = (minYear = 1, maxYear = 9999) =>
  fc
    .record({
      year: fc.integer({ min: minYear, max: maxYear }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 31 }),
    })
    .map((d) => ({ ...d, day: Math.min(d.day, daysInMonth(d.year, d.month)) }));

const timeArb = fc.record({
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.integer({ min: 0, max: 59 }),
  micro: fc.integer({ min: 0, max: 999_999 }),
});

const partsArb = (minYear?: number, maxYear?: number) =>
  fc.tuple(dateArb(minYear, maxYear), timeArb).map(([d, t]) => ({ ...d, ...t }));

type Parts = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
};
const ymd = (p: CalendarDate) => `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}`;
const hms = (p: Parts) => `${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}`;
const fraction = (p: Parts, digits: number) =>
  digits === 0 ? '' : `.${pad(p.micro, 6).slice(0, digits)}`;

/**
 * Instants are doubles of microseconds: exact to the microsecond within ±2^53 µs of 1970 (1684-07-28 .. 2255-06-05) and to the second
 * (and tenth of a second) over 0001..9999. Generated strings stay within what is exact.
 */
const isoStringArb = fc
  .oneof(
    fc.tuple(partsArb(1700, 2250), fc.integer({ min: 0, max: 6 }), fc.constantFrom('Z', '+00:00')),
    fc.tuple(partsArb(1, 9999), fc.integer({ min: 0, max: 1 }), fc.constantFrom('Z', '+00:00')),
  )
  .map(([p, digits, offset]) => `${ymd(p)}T${hms(p)}${fraction(p, digits)}${offset}`);

const microStringArb = fc
  .oneof(
    fc.tuple(partsArb(1700, 2250), fc.boolean()),
    fc.tuple(partsArb(1, 9999), fc.constant(false)),
  )
  .map(([p, withFraction]) => `${ymd(p)} ${hms(p)}${withFraction ? fraction(p, 6) : ''}+00:00`);

const MIN_EXACT = instantFromParts({
  year: 1700,
  month: 1,
  day: 1,
  hour: 0,
  minute: 0,
  second: 0,
  micro: 0,
});
const MAX_EXACT = instantFromParts({
  year: 2250,
  month: 12,
  day: 31,
  hour: 23,
  minute: 59,
  second: 59,
  micro: 999_999,
});
const MIN_SECOND =
  instantFromParts({ year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, micro: 0 }) / 1e6;
const MAX_SECOND =
  instantFromParts({ year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, micro: 0 }) /
  1e6;

const exactInstantArb = fc.integer({ min: MIN_EXACT, max: MAX_EXACT });
const wholeSecondArb = fc.integer({ min: MIN_SECOND, max: MAX_SECOND }).map((s) => s * 1_000_000);

const isoStyleArb: fc.Arbitrary<IsoStyle> = fc.record({
  offset: fc.constantFrom('Z' as const, '+00:00' as const),
  fractionDigits: fc.constantFrom(
    0 as const,
    1 as const,
    2 as const,
    3 as const,
    4 as const,
    5 as const,
    6 as const,
  ),
});

/** Truncates an instant to `digits` fraction digits (towards the start of its second). */
function truncate(v: number, digits: number): number {
  const unit = 10 ** (6 - digits);
  const microOfSecond = ((v % 1_000_000) + 1_000_000) % 1_000_000;
  return v - (microOfSecond % unit);
}

// --- round trips --------------------------------------------------------------------------------

describe('isoTimestamp', () => {
  it('format(parse(s), styleOf(s)) === s for generated valid strings', () => {
    fc.assert(
      fc.property(isoStringArb, (s) => {
        expect(isoTimestamp.format(isoTimestamp.parse(s), isoTimestamp.styleOf(s))).toBe(s);
      }),
    );
  });

  it('parse(format(v, style)) === v to the style precision', () => {
    fc.assert(
      fc.property(exactInstantArb, isoStyleArb, (v, style) => {
        expect(isoTimestamp.parse(isoTimestamp.format(v, style))).toBe(
          truncate(v, style.fractionDigits),
        );
      }),
    );
    fc.assert(
      fc.property(wholeSecondArb, isoStyleArb, (v, style) => {
        expect(isoTimestamp.parse(isoTimestamp.format(v, style))).toBe(v);
      }),
    );
  });

  it('default format: Z and as many fraction digits as needed (0, 3 or 6), lossless', () => {
    fc.assert(
      fc.property(exactInstantArb, (v) => {
        const s = isoTimestamp.format(v);
        expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6})?Z$/);
        expect(isoTimestamp.parse(s)).toBe(v);
      }),
    );
    expect(isoTimestamp.format(0)).toBe('1970-01-01T00:00:00Z');
    expect(isoTimestamp.format(1_500_000)).toBe('1970-01-01T00:00:01.500Z');
    expect(isoTimestamp.format(-1)).toBe('1969-12-31T23:59:59.999999Z');
  });

  it('any string: tryParse never throws, and what it accepts round-trips', () => {
    // Strings, plus valid ones with one digit changed (often invalid, sometimes another year).
    const mutated = fc
      .tuple(isoStringArb, fc.nat(), fc.integer({ min: 1, max: 9 }))
      .map(([s, at, delta]) => {
        const i = at % s.length;
        return /\d/.test(s[i]!)
          ? s.slice(0, i) + String((Number(s[i]) + delta) % 10) + s.slice(i + 1)
          : s;
      });
    fc.assert(
      fc.property(fc.oneof(fc.string(), mutated), (s) => {
        const r = isoTimestamp.tryParse(s);
        if (!r.ok) {
          expect(r.error).toBeInstanceOf(TimestampFormatError);
          return;
        }
        const style = isoTimestamp.styleOf(s);
        const again = isoTimestamp.format(r.value, style);
        // Exact while the microsecond count is a safe integer (1684-07-28 .. 2255-06-05).
        if (Math.abs(r.value) < 2 ** 53) expect(again).toBe(s);
        else {
          // Outside the exact range the instant is the nearest double (ulp up to 64 µs) and
          // format truncates to the shown digits, so the last shown digit may drop by one.
          const lastDigit = 10 ** (6 - style.fractionDigits);
          expect(Math.abs(isoTimestamp.parse(again) - r.value)).toBeLessThanOrEqual(lastDigit + 64);
        }
      }),
    );
  });
});

describe('microTimestamp', () => {
  it('format(parse(s), styleOf(s)) === s for generated valid strings', () => {
    fc.assert(
      fc.property(microStringArb, (s) => {
        expect(microTimestamp.format(microTimestamp.parse(s), microTimestamp.styleOf(s))).toBe(s);
      }),
    );
  });

  it('parse(format(v, style)) === v to the style precision', () => {
    fc.assert(
      fc.property(exactInstantArb, fc.boolean(), (v, withFraction) => {
        const s = microTimestamp.format(v, { fraction: withFraction });
        expect(microTimestamp.parse(s)).toBe(withFraction ? v : truncate(v, 0));
      }),
    );
    fc.assert(
      fc.property(wholeSecondArb, fc.boolean(), (v, withFraction) => {
        expect(microTimestamp.parse(microTimestamp.format(v, { fraction: withFraction }))).toBe(v);
      }),
    );
  });

  it('default format writes the six fraction digits', () => {
    expect(microTimestamp.format(0)).toBe('1970-01-01 00:00:00.000000+00:00');
    expect(microTimestamp.styleOf('2024-05-17 09:30:00+00:00')).toEqual({ fraction: false });
  });
});

describe.each([
  [
    'taskDate',
    taskDate,
    (d: CalendarDate) => `${pad(d.day, 2)}-${pad(d.month, 2)}-${pad(d.year, 4)}`,
  ],
  ['assetDate', assetDate, (d: CalendarDate) => ymd(d)],
] as const)('%s', (_name, codec, render) => {
  it('format(parse(s)) === s and parse(format(d)) equals d over years 0001..9999', () => {
    fc.assert(
      fc.property(dateArb(), (d) => {
        const s = render(d);
        expect(codec.format(codec.parse(s), codec.styleOf(s))).toBe(s);
        expect(codec.parse(codec.format(d))).toEqual(d);
      }),
    );
  });

  it('leap years: 29 February 2024 and 2000 exist; 2023 and 1900 do not', () => {
    for (const year of [2024, 2000, 4])
      expect(codec.parse(render({ year, month: 2, day: 29 }))).toEqual({ year, month: 2, day: 29 });
    for (const year of [2023, 1900, 2100]) {
      expect(() => codec.parse(render({ year, month: 2, day: 29 }))).toThrow(TimestampFormatError);
    }
  });

  it('year 0001 and 9999 edges', () => {
    for (const d of [
      { year: 1, month: 1, day: 1 },
      { year: 9999, month: 12, day: 31 },
    ]) {
      expect(codec.format(codec.parse(render(d)))).toBe(render(d));
    }
    expect(() => codec.parse(render({ year: 0, month: 12, day: 31 }))).toThrow(
      /year 0 is outside 0001..9999/,
    );
  });

  it('format refuses impossible dates', () => {
    expect(() => codec.format({ year: 2023, month: 2, day: 29 })).toThrow(RangeError);
    expect(() => codec.format({ year: 2024, month: 13, day: 1 })).toThrow(RangeError);
  });
});

describe('year 0001 and 9999 edges of the instant codecs', () => {
  it.each([
    '0001-01-01T00:00:00Z',
    '0001-01-01T00:00:00.5+00:00',
    '9999-12-31T23:59:59Z',
    '9999-12-31T23:59:59+00:00',
  ])('%s round-trips', (s) => {
    expect(isoTimestamp.format(isoTimestamp.parse(s), isoTimestamp.styleOf(s))).toBe(s);
  });

  it.each(['0001-01-01 00:00:00.000000+00:00', '9999-12-31 23:59:59+00:00'])(
    '%s round-trips',
    (s) => {
      expect(microTimestamp.format(microTimestamp.parse(s), microTimestamp.styleOf(s))).toBe(s);
    },
  );

  it('the edges order correctly around the epoch', () => {
    const first = isoTimestamp.parse('0001-01-01T00:00:00Z');
    const last = isoTimestamp.parse('9999-12-31T23:59:59Z');
    expect(first).toBeLessThan(0);
    expect(last).toBeGreaterThan(0);
    expect(calendarDateFromInstant(first)).toEqual({ year: 1, month: 1, day: 1 });
    expect(calendarDateFromInstant(last)).toEqual({ year: 9999, month: 12, day: 31 });
  });

  it('year 0000 is rejected', () => {
    expect(() => isoTimestamp.parse('0000-12-31T23:59:59Z')).toThrow(
      /year 0 is outside 0001..9999/,
    );
  });
});

// --- malformed strings --------------------------------------------------------------------------

function expectRejected(
  codec: { parse(s: string): unknown; tryParse(s: string): { ok: boolean } },
  s: string,
  reason?: RegExp,
) {
  expect(codec.tryParse(s).ok).toBe(false);
  let thrown: unknown;
  try {
    codec.parse(s);
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `${s} was accepted`).toBeInstanceOf(TimestampFormatError);
  const err = thrown as TimestampFormatError;
  expect(err.input).toBe(s);
  expect(err.message).toContain(JSON.stringify(s));
  if (reason) expect(err.reason).toMatch(reason);
}

describe('malformed strings are rejected with TimestampFormatError', () => {
  it.each([
    ['2024/05/17T09:30:00Z', /expected e\.g\./],
    ['2024-05-17 09:30:00Z', undefined],
    ['2024-05-17T09.30.00Z', undefined],
    ['2024-02-31T09:30:00Z', /day 31 is outside 01..29/],
    ['2023-02-29T09:30:00Z', /day 29 is outside 01..28/],
    ['2024-13-01T09:30:00Z', /month 13/],
    ['2024-05-17T24:00:00Z', /hour 24 is outside 00..23/],
    ['2024-05-17T09:60:00Z', /minute 60/],
    ['2016-12-31T23:59:60Z', /leap seconds are not supported/],
    ['24-05-17T09:30:00Z', undefined],
    ['2024-05-17T09:30:00', undefined],
    ['2024-05-17T09:30:00+02:00', undefined],
    ['2024-05-17T09:30:00-00:00', undefined],
    ['2024-05-17T09:30:00z', undefined],
    ['2024-05-17T09:30:00.1234567Z', undefined],
    ['2024-05-17T09:30:00.Z', undefined],
    ['2024-05-17', undefined],
    [' 2024-05-17T09:30:00Z', undefined],
    ['', undefined],
  ])('iso %j', (s, reason) => expectRejected(isoTimestamp, s, reason));

  it.each([
    ['2024-05-17T09:30:00.123456+00:00', undefined],
    ['2024-05-17 09:30:00.123456Z', undefined],
    ['2024-05-17 09:30:00.123+00:00', undefined],
    ['2024-05-17 09:30:00.123456', undefined],
    ['2024-05-17 09:30:00.123456+01:00', undefined],
    ['2024-02-31 09:30:00.000000+00:00', /day 31/],
    ['2024-05-17 24:00:00.000000+00:00', /hour 24/],
    ['2024-05-17 23:59:60.000000+00:00', /leap seconds/],
    ['24-05-17 09:30:00.000000+00:00', undefined],
  ])('micro %j', (s, reason) => expectRejected(microTimestamp, s, reason));

  it.each([
    ['17/05/2024', undefined],
    ['17.05.2024', undefined],
    ['2024-05-17', undefined],
    ['31-02-2024', /day 31 is outside 01..29/],
    ['29-02-2023', /day 29 is outside 01..28/],
    ['17-05-24', undefined],
    ['7-5-2024', undefined],
    ['17-13-2024', /month 13/],
    ['00-05-2024', /day 0/],
  ])('taskDate %j', (s, reason) => expectRejected(taskDate, s, reason));

  it.each([
    ['2024/05/17', undefined],
    ['17-05-2024', undefined],
    ['2024-02-31', /day 31/],
    ['24-05-17', undefined],
    ['2024-5-17', undefined],
    ['2024-05-17T00:00:00Z', undefined],
  ])('assetDate %j', (s, reason) => expectRejected(assetDate, s, reason));

  it('styleOf refuses an invalid string', () => {
    expect(() => isoTimestamp.styleOf('2024-05-17')).toThrow(TimestampFormatError);
    expect(() => microTimestamp.styleOf('2024-05-17T00:00:00Z')).toThrow(TimestampFormatError);
  });
});

// --- RFC 3339 -----------------------------------------------------------------------------------

describe('rfc3339 (search inputs)', () => {
  it('any offset: the instant is the local time minus the offset', () => {
    fc.assert(
      fc.property(
        partsArb(1700, 2250),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        fc.integer({ min: 0, max: 6 }),
        (p, offsetMinutes, digits) => {
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const s = `${ymd(p)}T${hms(p)}${fraction(p, digits)}${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
          const local = instantFromParts({ ...p, micro: truncate(p.micro, digits) });
          expect(parseRfc3339(s)).toBe(local - offsetMinutes * 60_000_000);
        },
      ),
    );
  });

  it('agrees with the ISO codec on UTC strings, and accepts lower-case t and z', () => {
    fc.assert(
      fc.property(isoStringArb, (s) => {
        expect(parseRfc3339(s)).toBe(isoTimestamp.parse(s));
        expect(parseRfc3339(s.replace('T', 't').replace('Z', 'z'))).toBe(isoTimestamp.parse(s));
      }),
    );
  });

  it.each([
    ['2024-05-17', /a date alone is not a date-time/],
    ['2024-05-17T09:30:00.1234567Z', /more than 6 fraction digits/],
    ['2024-05-17T09:30:00', /expected e\.g\./],
    ['2024-05-17 09:30:00Z', /expected e\.g\./],
    ['2024-05-17T09:30:00+2:00', /expected e\.g\./],
    ['2024-05-17T09:30:00+24:00', /offset \+24:00 is out of range/],
    ['2024-05-17T09:30:00+05:60', /out of range/],
    ['2024-02-30T09:30:00Z', /day 30/],
    ['2024-05-17T24:00:00Z', /hour 24/],
    ['2016-12-31T23:59:60Z', /leap seconds/],
    ['24-05-17T09:30:00Z', /expected e\.g\./],
  ])('rejects %j', (s, reason) => {
    const r = tryParseRfc3339(s);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBeInstanceOf(TimestampFormatError);
      expect(r.error.reason).toMatch(reason);
    }
    expect(() => parseRfc3339(s)).toThrow(TimestampFormatError);
  });
});

describe('calendar helpers', () => {
  it('calendarDateToDays / calendarDateFromInstant agree', () => {
    fc.assert(
      fc.property(dateArb(1700, 2250), (d) => {
        expect(calendarDateFromInstant(calendarDateToDays(d) * 86_400_000_000)).toEqual(d);
      }),
    );
  });

  it('an instant one microsecond before the epoch is on 1969-12-31', () => {
    expect(calendarDateFromInstant(-1)).toEqual({ year: 1969, month: 12, day: 31 });
  });
});
