import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daysInMonth,
  instantFromParts,
  isoTimestamp,
  microTimestamp,
  readId,
  readInstant,
  readNumber,
  tryParseRfc3339,
} from '../../index';

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const at = (s: string) => isoTimestamp.parse(s);

describe('readInstant: the layouts real services send', () => {
  const cases: Array<[string, unknown, string | null]> = [
    ['our ISO layout', '2024-05-17T09:30:00.123Z', '2024-05-17T09:30:00.123Z'],
    ['our micro layout', '2024-05-17 09:30:00.123456+00:00', '2024-05-17T09:30:00.123456Z'],
    ['Go RFC3339Nano', '2024-05-17T09:30:00.123456789Z', '2024-05-17T09:30:00.123457Z'],
    [
      'Go RFC3339Nano, 9 digits rounding down',
      '2024-05-17T09:30:00.123456449Z',
      '2024-05-17T09:30:00.123456Z',
    ],
    ['nanos carrying into the next second', '2024-12-31T23:59:59.9999995Z', '2025-01-01T00:00:00Z'],
    ['Go RFC3339 with an offset', '2024-05-17T15:00:00+05:30', '2024-05-17T09:30:00Z'],
    ['negative offset', '2024-05-17T04:30:00-05:00', '2024-05-17T09:30:00Z'],
    ['offset without colon', '2024-05-17T15:00:00+0530', '2024-05-17T09:30:00Z'],
    ['offset in hours only', '2024-05-17T11:30:00+02', '2024-05-17T09:30:00Z'],
    [
      'Python isoformat with space and offset',
      '2024-05-17 15:00:00.5+05:30',
      '2024-05-17T09:30:00.5Z',
    ],
    ['Python str(datetime) naive', '2024-05-17 09:30:00.123456', '2024-05-17T09:30:00.123456Z'],
    ['no offset, T (read as UTC)', '2024-05-17T09:30:00', '2024-05-17T09:30:00Z'],
    ['no seconds', '2024-05-17T09:30Z', '2024-05-17T09:30:00Z'],
    ['comma fraction', '2024-05-17T09:30:00,25Z', '2024-05-17T09:30:00.25Z'],
    ['lower-case t and z', '2024-05-17t09:30:00z', '2024-05-17T09:30:00Z'],
    ['space before the offset', '2024-05-17 09:30:00 +00:00', '2024-05-17T09:30:00Z'],
    ['date only: midnight UTC', '2024-05-17', '2024-05-17T00:00:00Z'],
    ['surrounding blanks', '  2024-05-17T09:30:00Z ', '2024-05-17T09:30:00Z'],
    ['epoch seconds (number)', 1715938200, '2024-05-17T09:30:00Z'],
    ['epoch seconds with a fraction', 1715938200.25, '2024-05-17T09:30:00.25Z'],
    ['epoch milliseconds (number)', 1715938200123, '2024-05-17T09:30:00.123Z'],
    ['epoch seconds (string)', '1715938200', '2024-05-17T09:30:00Z'],
    ['epoch milliseconds (string)', '1715938200123', '2024-05-17T09:30:00.123Z'],
    ['epoch zero', 0, '1970-01-01T00:00:00Z'],
    ['empty string', '', null],
    ['blank string', '   ', null],
    ['null', null, null],
    ['undefined', undefined, null],
    ['an object', { t: 1 }, null],
    ['a boolean', true, null],
    ['NaN', Number.NaN, null],
    ['infinity', Number.POSITIVE_INFINITY, null],
    ['February 30th', '2024-02-30T00:00:00Z', null],
    ['hour 24', '2024-05-17T24:00:00Z', null],
    ['a leap second', '2016-12-31T23:59:60Z', null],
    ['offset past 23:59', '2024-05-17T09:30:00+24:00', null],
    ['day-month-year', '17-05-2024', null],
    ['words', 'yesterday', null],
    ['epoch beyond year 9999', 1e17, null],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(readInstant(input)).toBe(expected === null ? null : at(expected));
  });
});

const dateArb = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
  })
  .map((d) => ({ ...d, day: Math.min(d.day, daysInMonth(d.year, d.month)) }));
const partsArb = fc
  .record({
    date: dateArb,
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    nanos: fc.integer({ min: 0, max: 999_999_999 }),
  })
  .map(({ date, ...t }) => ({ ...date, ...t }));
const offsetArb = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });

function offsetText(minutes: number, style: 'colon' | 'compact'): string {
  const sign = minutes < 0 ? '-' : '+';
  const a = Math.abs(minutes);
  return `${sign}${pad(Math.floor(a / 60), 2)}${style === 'colon' ? ':' : ''}${pad(a % 60, 2)}`;
}

describe('readInstant: properties', () => {
  it('agrees with the strict codecs on every string they accept', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999 }),
        (d, extra) => {
          const us = d.getTime() * 1000 + extra;
          for (const s of [
            isoTimestamp.format(us),
            isoTimestamp.format(us, { offset: '+00:00', fractionDigits: 6 }),
            microTimestamp.format(us),
            microTimestamp.format(us, { fraction: false }),
          ]) {
            const strict = s.includes('T') ? isoTimestamp.tryParse(s) : microTimestamp.tryParse(s);
            expect(strict.ok).toBe(true);
            if (strict.ok) expect(readInstant(s)).toBe(strict.value);
          }
        },
      ),
    );
  });

  it('reads any offset, separator and 0 to 9 fraction digits to the rounded microsecond', () => {
    fc.assert(
      fc.property(
        partsArb,
        offsetArb,
        fc.integer({ min: 0, max: 9 }),
        fc.constantFrom('T', ' ', 't'),
        fc.constantFrom('colon', 'compact', 'Z') as fc.Arbitrary<'colon' | 'compact' | 'Z'>,
        (p, offset, digits, sep, style) => {
          const off = style === 'Z' ? 0 : offset;
          const nanoText = pad(p.nanos, 9).slice(0, digits);
          const kept = digits === 0 ? 0 : Number(nanoText.padEnd(9, '0'));
          const s =
            `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}${sep}` +
            `${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}` +
            (digits > 0 ? `.${nanoText}` : '') +
            (style === 'Z' ? 'Z' : offsetText(off, style));
          const expected = instantFromParts({ ...p, micro: Math.round(kept / 1000) }, off);
          expect(readInstant(s)).toBe(expected);
        },
      ),
    );
  });

  it('agrees with the search parser (tryParseRfc3339) wherever that accepts', () => {
    fc.assert(
      fc.property(partsArb, offsetArb, (p, off) => {
        const s =
          `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}T` +
          `${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}.${pad(Math.floor(p.nanos / 1000), 6)}` +
          offsetText(off, 'colon');
        const r = tryParseRfc3339(s);
        expect(r.ok).toBe(true);
        if (r.ok) expect(readInstant(s)).toBe(r.value);
      }),
    );
  });

  it('epoch seconds and milliseconds name the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000_000, max: 99_999_999_999 }), (sec) => {
        // Seconds from 1973 to 5138; as milliseconds they are >= 1e11.
        expect(readInstant(sec)).toBe(sec * 1e6);
        expect(readInstant(sec * 1000)).toBe(sec * 1e6);
        expect(readInstant(String(sec * 1000))).toBe(sec * 1e6);
      }),
    );
  });

  it('never throws, whatever arrives', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const r = readInstant(v);
        expect(r === null || Number.isInteger(r)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = readInstant(s);
        expect(r === null || Number.isInteger(r)).toBe(true);
      }),
    );
  });
});

describe('coercers for index columns', () => {
  it.each([
    [12.5, 12.5],
    ['12.5', 12.5],
    [' 7 ', 7],
    ['-3e2', -300],
    ['', null],
    ['12,5', null],
    ['abc', null],
    [null, null],
    [Number.NaN, null],
    ['Infinity', null],
    [true, null],
  ])('readNumber(%j) = %j', (input, expected) => {
    expect(readNumber(input)).toBe(expected);
  });

  it.each([
    ['ord-1', 'ord-1'],
    [42, '42'],
    [0, '0'],
    ['', null],
    [null, null],
    [undefined, null],
    [{ id: 1 }, null],
    [Number.NaN, null],
  ])('readId(%j) = %j', (input, expected) => {
    expect(readId(input)).toBe(expected);
  });
});
