/**
 * `isoTimestamp.format` takes a shortcut through `Date.toISOString` for instants from 1970 to
 * 2255; the text must be the general path's, character for character, for every style. The
 * general path is the one the codec's round-trip properties (codecs.spec.ts) are proven on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromParts, isoTimestamp, type IsoStyle } from '../codecs';

/** The general path, as the codec formats outside the shortcut's range. */
const general = (instant: number, style: Partial<IsoStyle> = {}): string =>
  isoFromParts(instant, style, style.offset ?? 'Z');

const style = fc.record(
  {
    offset: fc.constantFrom('Z' as const, '+00:00' as const),
    fractionDigits: fc.constantFrom(0, 1, 2, 3, 4, 5, 6) as fc.Arbitrary<
      IsoStyle['fractionDigits']
    >,
  },
  { requiredKeys: [] },
);

describe('isoTimestamp.format: the shortcut writes what the general path writes', () => {
  it('for any instant in range and any style', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 53 - 1 }), style, (instant, s) => {
        expect(isoTimestamp.format(instant, s)).toBe(general(instant, s));
      }),
      { numRuns: 5000, seed: 20241129 },
    );
  });

  it('at the edges: whole seconds, whole milliseconds, the last µs before the limit, outside it', () => {
    const edges = [
      0,
      1,
      999,
      1000,
      1_000_000,
      1_715_938_200_000_000,
      1_715_938_200_123_000,
      1_715_938_200_123_456,
      1_715_938_200_000_456,
      2 ** 53 - 1,
      2 ** 53,
      -1,
      -1_000_000,
      -62_135_596_800_000_000, // 0001-01-01
    ];
    for (const instant of edges) {
      for (const s of [undefined, { fractionDigits: 3 as const }, { fractionDigits: 0 as const }]) {
        expect(isoTimestamp.format(instant, s), `${instant} ${JSON.stringify(s)}`).toBe(
          general(instant, s),
        );
      }
    }
    expect(isoTimestamp.format(1_715_938_200_123_456)).toBe('2024-05-17T09:30:00.123456Z');
    expect(isoTimestamp.format(1_715_938_200_120_000, { offset: '+00:00' })).toBe(
      '2024-05-17T09:30:00.120+00:00',
    );
  });
});
