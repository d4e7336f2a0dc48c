/**
 * The compact geometry BLOB: every geometry comes back as exactly what was encoded (its JSON
 * text equal), in the compact form when GeoJSON with at most 9 decimals, as text otherwise;
 * a damaged blob throws rather than reading past its end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGeometry, encodeGeometry, geometryJson } from '../geometry-blob';

const RUNS = Number(process.env.PROP_RUNS ?? 300);

/** Numbers with 0 to 9 decimals, and some that need more (or are not finite-decimal). */
const coordinate = fc.oneof(
  fc
    .tuple(fc.integer({ min: -180_000_000, max: 180_000_000 }), fc.integer({ min: 0, max: 9 }))
    .map(([i, k]) => i / 10 ** k),
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.constantFrom(0, -0, 1e-7, 123.456789012, 2 ** 40),
);
const position = (dims: number) => fc.array(coordinate, { minLength: dims, maxLength: dims });
const positions = (dims: number) => fc.array(position(dims), { maxLength: 6 });
const ring = (dims: number) =>
  fc.array(position(dims), { minLength: 3, maxLength: 6 }).map((r) => [...r, [...r[0]!]]);

const geometry = (dims: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    position(dims).map((coordinates) => ({ type: 'Point', coordinates })),
    positions(dims).map((coordinates) => ({ type: 'MultiPoint', coordinates })),
    positions(dims).map((coordinates) => ({ type: 'LineString', coordinates })),
    fc
      .array(positions(dims), { maxLength: 3 })
      .map((c) => ({ type: 'MultiLineString', coordinates: c })),
    fc.array(ring(dims), { maxLength: 3 }).map((coordinates) => ({ type: 'Polygon', coordinates })),
    fc
      .array(fc.array(ring(dims), { maxLength: 2 }), { maxLength: 3 })
      .map((coordinates) => ({ type: 'MultiPolygon', coordinates })),
  );
const anyGeometry = fc.oneof(
  geometry(2),
  geometry(3),
  fc
    .array(geometry(2), { maxLength: 3 })
    .map((geometries) => ({ type: 'GeometryCollection', geometries })),
  // Not what the compact form holds: kept as text.
  fc.jsonValue(),
  geometry(2).map((g) => ({ ...(g as object), bbox: [0, 0, 1, 1] })),
  geometry(2).map((g) => {
    const { coordinates, type } = g as { coordinates: unknown; type: string };
    return { coordinates, type };
  }),
);

describe('geometry blob', () => {
  it('decodes to exactly what was encoded', () => {
    fc.assert(
      fc.property(anyGeometry, (g) => {
        const blob = encodeGeometry(g);
        if (g === null) {
          expect(blob).toBeNull();
          return;
        }
        const want = JSON.stringify(g);
        expect(JSON.stringify(decodeGeometry(blob!))).toBe(want);
        expect(geometryJson(blob!)).toBe(want);
      }),
      { numRuns: RUNS },
    );
  });

  it('holds a footprint polygon in about a quarter of its JSON', () => {
    const g = {
      type: 'Polygon',
      coordinates: [
        [
          [147.781735, -70.806222],
          [148.78215, -70.954671],
          [149.223557, -70.627019],
          [148.239361, -70.478569],
          [147.781735, -70.806222],
        ],
      ],
    };
    const blob = encodeGeometry(g)!;
    expect(blob[0]).toBe(1); // compact
    expect(blob.length).toBeLessThanOrEqual(40);
    expect(JSON.stringify(g).length).toBeGreaterThan(4 * blob.length - 30);
    expect(decodeGeometry(blob)).toEqual(g);
  });

  it('keeps as text what the compact form cannot hold exactly', () => {
    for (const g of [
      { type: 'Point', coordinates: [0.1234567891234, 1] }, // more than 9 decimals
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1, 1],
        ],
      }, // mixed dimensions
      { type: 'Point', coordinates: [1, 2], crs: 'x' }, // another member
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            ['1', 0],
          ],
        ],
      }, // a string
      { type: 'toString', coordinates: [0, 0] }, // not a GeoJSON type
      'POINT (1 2)',
    ]) {
      const blob = encodeGeometry(g)!;
      expect(blob[0], JSON.stringify(g)).toBe(0);
      expect(decodeGeometry(blob)).toEqual(g);
    }
  });

  it('throws on a damaged blob instead of reading past its end', () => {
    const blob = encodeGeometry({
      type: 'LineString',
      coordinates: [
        [1.5, 2],
        [3, 4.25],
      ],
    })!;
    for (let cut = 1; cut < blob.length; cut++)
      expect(() => decodeGeometry(blob.subarray(0, cut))).toThrow(RangeError);
    expect(() => decodeGeometry(Buffer.from([7]))).toThrow(RangeError);
    expect(() => decodeGeometry(Buffer.from([1, 2, 0, 99]))).toThrow(RangeError);
  });
});
