import { describe, expect, it } from 'vitest';
import { footprintContains, packFootprints, packFootprintSet, ringPoints } from '../footprints';
import { footprintsAt } from '../hit-test';
import { mercX, mercY, unmercX, unmercY } from '../mercator';
import { GridIndex } from '../spatial-index';

/** A lon/lat rectangle as a flat ring. */
function rect(w: number, s: number, e: number, n: number): number[] {
  return [w, s, e, s, e, n, w, n, w, s];
}

/** Deterministic pseudo-random numbers (no Math.random in tests). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('mercator', () => {
  it('round-trips lon/lat through world units', () => {
    for (const [lon, lat] of [
      [0, 0],
      [13.4, 52.5],
      [-122.4, 37.8],
      [179.9, -60],
    ] as const) {
      expect(unmercX(mercX(lon))).toBeCloseTo(lon, 9);
      expect(unmercY(mercY(lat))).toBeCloseTo(lat, 9);
    }
    expect(mercX(-180)).toBe(0);
    expect(mercY(0)).toBeCloseTo(0.5, 12);
    expect(mercY(90)).toBeCloseTo(0, 9); // clamped at Leaflet's max latitude
  });
});

describe('packFootprints', () => {
  it('packs rings, keeps ids findable and orients every ring the same way', () => {
    const cw = rect(0, 0, 1, 1);
    const ccw = [0, 0, 0, 1, 1, 1, 1, 0, 0, 0];
    const fp = packFootprints(['a', 'b'], [cw, ccw]);
    expect(fp.count).toBe(2);
    expect(fp.indexOf.get('b')).toBe(1);
    expect(Array.from(fp.offsets)).toEqual([0, 5, 10]);
    ringPoints(fp, 0);
    ringPoints(fp, 1);
    expect(fp.areas[0]).toBeCloseTo(fp.areas[1] as number, 15);
    // Same orientation after packing: the first step of both rings goes the same way round.
    const signed = (i: number) => {
      let sum = 0;
      for (let k = fp.offsets[i] as number; k < (fp.offsets[i + 1] as number) - 1; k++) {
        sum +=
          (fp.points[k * 2] as number) * (fp.points[k * 2 + 3] as number) -
          (fp.points[k * 2 + 2] as number) * (fp.points[k * 2 + 1] as number);
      }
      return Math.sign(sum);
    };
    expect(signed(0)).toBe(signed(1));
  });

  it('projects a ring when it is first asked for, inside the box worked out at once', () => {
    const rings = [rect(10, -20, 12, -19), [179, 60, -179, 60, -178, 61.5, 179, 61, 179, 60]];
    const fp = packFootprints(['a', 'b'], rings);
    expect(Array.from(fp.projected)).toEqual([0, 0]);
    expect(Number.isNaN(fp.areas[1])).toBe(true);
    for (const i of [0, 1]) {
      const pts = ringPoints(fp, i);
      const xs: number[] = [];
      const ys: number[] = [];
      for (let k = fp.offsets[i] as number; k < (fp.offsets[i + 1] as number); k++) {
        xs.push(pts[k * 2] as number);
        ys.push(pts[k * 2 + 1] as number);
      }
      const box = Array.from(fp.boxes.subarray(i * 4, i * 4 + 4));
      const expected = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      box.forEach((v, k) => expect(v).toBeCloseTo(expected[k] as number, 12));
      expect(fp.areas[i]).toBeGreaterThan(0);
    }
    expect(Array.from(fp.projected)).toEqual([1, 1]);
  });

  it('reads rings at their own offsets when those do not start at 0', () => {
    const coords = [99, 99, 0, 0, 1, 0, 1, 1, 0, 1];
    const fp = packFootprintSet({ ids: ['a'], offsets: new Uint32Array([1, 5]), coords });
    expect(Array.from(fp.offsets)).toEqual([0, 4]);
    expect(footprintContains(fp, 0, mercX(0.5), mercY(0.5))).toBe(true);
    expect(fp.boxes[0]).toBeCloseTo(mercX(0), 12);
  });

  it('unwraps a ring crossing the antimeridian into one continuous box', () => {
    const fp = packFootprints(['x'], [[179, 0, -179, 0, -179, 1, 179, 1, 179, 0]]);
    const width = (fp.boxes[2] as number) - (fp.boxes[0] as number);
    expect(width).toBeCloseTo(2 / 360, 9);
  });
});

describe('GridIndex + footprintsAt', () => {
  it('finds the footprint under a point and orders nested hits smallest first', () => {
    const fp = packFootprints(
      ['big', 'small', 'far'],
      [rect(10, 10, 20, 20), rect(14, 14, 16, 16), rect(-50, -10, -40, 0)],
    );
    const index = new GridIndex(fp.boxes);
    const ids = (lon: number, lat: number) =>
      footprintsAt(fp, index, mercX(lon), mercY(lat)).map((i) => fp.ids[i]);
    expect(ids(15, 15)).toEqual(['small', 'big']);
    expect(ids(11, 11)).toEqual(['big']);
    expect(ids(-45, -5)).toEqual(['far']);
    expect(ids(0, 0)).toEqual([]);
  });

  it('tests the ring, not just the box (a triangle)', () => {
    const fp = packFootprints(['tri'], [[0, 0, 10, 0, 0, 10, 0, 0]]);
    const index = new GridIndex(fp.boxes);
    expect(footprintsAt(fp, index, mercX(2), mercY(2))).toEqual([0]);
    // Inside the box, outside the triangle.
    expect(footprintsAt(fp, index, mercX(8), mercY(8))).toEqual([]);
    expect(footprintContains(fp, 0, mercX(8), mercY(8))).toBe(false);
  });

  it('hits a footprint across the antimeridian from both sides', () => {
    const fp = packFootprints(['x'], [[179, 0, -179, 0, -179, 1, 179, 1, 179, 0]]);
    const index = new GridIndex(fp.boxes);
    expect(footprintsAt(fp, index, mercX(179.5), mercY(0.5))).toEqual([0]);
    expect(footprintsAt(fp, index, mercX(-179.5), mercY(0.5))).toEqual([0]);
  });

  it('agrees with a brute-force scan on 5,000 random footprints', () => {
    const rnd = lcg(42);
    const ids: string[] = [];
    const rings: number[][] = [];
    for (let i = 0; i < 5000; i++) {
      const lon = rnd() * 60 - 30;
      const lat = rnd() * 40 - 20;
      const w = 0.1 + rnd() * 2;
      const h = 0.1 + rnd() * 2;
      ids.push(`s${i}`);
      rings.push(rect(lon, lat, lon + w, lat + h));
    }
    const fp = packFootprints(ids, rings);
    const index = new GridIndex(fp.boxes);
    expect(index.cols * index.rows).toBeGreaterThan(100);
    for (let q = 0; q < 300; q++) {
      const x = mercX(rnd() * 64 - 32);
      const y = mercY(rnd() * 44 - 22);
      const expected: number[] = [];
      for (let i = 0; i < fp.count; i++) if (footprintContains(fp, i, x, y)) expected.push(i);
      expect(footprintsAt(fp, index, x, y).sort((a, b) => a - b)).toEqual(expected);
    }
    // Rectangle queries: each hit once, the same set as a scan of the boxes.
    const [x0, y0, x1, y1] = [mercX(-5), mercY(5), mercX(5), mercY(-5)];
    const got = index.queryRect(x0, y0, x1, y1).sort((a, b) => a - b);
    const want: number[] = [];
    for (let i = 0; i < fp.count; i++) {
      const b = fp.boxes;
      if (b[i * 4]! <= x1 && x0 <= b[i * 4 + 2]! && b[i * 4 + 1]! <= y1 && y0 <= b[i * 4 + 3]!) {
        want.push(i);
      }
    }
    expect(got).toEqual(want);
  });

  it('copes with no footprints and with empty rings', () => {
    const empty = packFootprints([], []);
    expect(footprintsAt(empty, new GridIndex(empty.boxes), 0.5, 0.5)).toEqual([]);
    const withEmpty = packFootprints(['e', 'r'], [[], rect(0, 0, 1, 1)]);
    const index = new GridIndex(withEmpty.boxes);
    expect(footprintsAt(withEmpty, index, mercX(0.5), mercY(0.5))).toEqual([1]);
  });
});
