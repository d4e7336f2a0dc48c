import { describe, expect, it } from 'vitest';
import { inRange, parseInstantRange, parseNumberRange, parseRfc3339 } from '../../index';

const A = '2024-05-01T00:00:00Z';
const B = '2024-05-31T23:59:59Z';

function ok<T>(r: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r.value;
}
function message(r: { ok: boolean; message?: string }): string {
  expect(r.ok).toBe(false);
  return (r as { message: string }).message;
}

describe('parseInstantRange', () => {
  it('a single value is a one-instant range', () => {
    expect(ok(parseInstantRange(A))).toEqual({ start: parseRfc3339(A), end: parseRfc3339(A) });
  });

  it('closed A/B (equal ends allowed)', () => {
    expect(ok(parseInstantRange(`${A}/${B}`))).toEqual({
      start: parseRfc3339(A),
      end: parseRfc3339(B),
    });
    expect(ok(parseInstantRange(`${A}/${A}`))).toEqual({
      start: parseRfc3339(A),
      end: parseRfc3339(A),
    });
  });

  it('open start ../B and open end A/..', () => {
    expect(ok(parseInstantRange(`../${B}`))).toEqual({ start: null, end: parseRfc3339(B) });
    expect(ok(parseInstantRange(`${A}/..`))).toEqual({ start: parseRfc3339(A), end: null });
  });

  it('compares instants, not text: offsets count', () => {
    // 01:00+02:00 is 23:00Z the day before, so this interval is not reversed.
    expect(ok(parseInstantRange('2024-05-02T01:00:00+02:00/2024-05-01T23:30:00Z')).start).toBe(
      parseRfc3339('2024-05-01T23:00:00Z'),
    );
  });

  it.each([
    ['/', 'an interval side is empty; write ".." for an open end (e.g. "../2024-01-01T00:00:00Z")'],
    ['../..', '"../.." is not an interval: at least one end must be given'],
    [
      `${A}/`,
      'an interval side is empty; write ".." for an open end (e.g. "../2024-01-01T00:00:00Z")',
    ],
    [
      `/${B}`,
      'an interval side is empty; write ".." for an open end (e.g. "../2024-01-01T00:00:00Z")',
    ],
    [`${A}/${B}/${B}`, 'an interval has exactly one "/", found 2'],
    [`${B}/${A}`, `the interval is reversed: "${B}" is after "${A}"`],
    ['..', '".." alone is not a value or an interval'],
  ])('rejects %j: %s', (input, expected) => {
    expect(message(parseInstantRange(input))).toBe(expected);
  });

  it('reports which end is malformed, with the timestamp reason', () => {
    expect(message(parseInstantRange(`2024-05-01/${B}`))).toMatch(
      /^interval start: .*a date alone is not a date-time/,
    );
    expect(message(parseInstantRange(`${A}/tomorrow`))).toMatch(
      /^interval end: "tomorrow" is not a valid RFC 3339 date-time/,
    );
    expect(message(parseInstantRange('a/b'))).toMatch(/^interval start: /);
    expect(message(parseInstantRange('2024-05-01'))).toMatch(/a date alone/);
  });
});

describe('parseNumberRange', () => {
  it('single, closed, open start, open end', () => {
    expect(ok(parseNumberRange('100'))).toEqual({ start: 100, end: 100 });
    expect(ok(parseNumberRange('100/5000'))).toEqual({ start: 100, end: 5000 });
    expect(ok(parseNumberRange('../5000'))).toEqual({ start: null, end: 5000 });
    expect(ok(parseNumberRange('0.5/..'))).toEqual({ start: 0.5, end: null });
    expect(ok(parseNumberRange('-10/1e3'))).toEqual({ start: -10, end: 1000 });
  });

  it.each([
    ['/', /an interval side is empty/],
    ['../..', /at least one end/],
    ['5/', /an interval side is empty/],
    ['/5', /an interval side is empty/],
    ['1/2/3', /exactly one "\/", found 2/],
    ['5000/100', /the interval is reversed: "5000" is after "100"/],
    ['big', /"big" is not a number/],
    [' ', /" " is not a number/],
    ['Infinity', /is not a number/],
    ['1/x', /^interval end: "x" is not a number/],
  ])('rejects %j', (input, expected) => {
    expect(message(parseNumberRange(input))).toMatch(expected);
  });
});

describe('inRange', () => {
  it('bounds are inclusive; null ends are open', () => {
    expect(inRange(5, { start: 5, end: 10 })).toBe(true);
    expect(inRange(10, { start: 5, end: 10 })).toBe(true);
    expect(inRange(4.99, { start: 5, end: 10 })).toBe(false);
    expect(inRange(10.01, { start: 5, end: 10 })).toBe(false);
    expect(inRange(-1e9, { start: null, end: 10 })).toBe(true);
    expect(inRange(1e9, { start: 5, end: null })).toBe(true);
    expect(inRange(4, { start: 5, end: null })).toBe(false);
  });
});
