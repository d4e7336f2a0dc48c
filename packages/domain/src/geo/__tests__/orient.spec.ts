import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orient2d, orientation } from '../orient';

/** A double as m * 2^e with integer m (exact), read from its IEEE bits. */
function exact(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = -1074;
  if (biased !== 0) {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return { m: hi >>> 31 ? -m : m, e };
}

/** Exact sign of (bx-ax)(cy-ay) - (by-ay)(cx-ax) for any finite doubles, with BigInt. */
function exactSign(...xs: number[]): number {
  const parts = xs.map(exact);
  const e0 = Math.min(...parts.map((p) => p.e));
  const [ax, ay, bx, by, cx, cy] = parts.map((p) => p.m << BigInt(p.e - e0)) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const d = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

function naiveSign(ax: number, ay: number, bx: number, by: number, cx: number, cy: number) {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

describe('orient2d', () => {
  it('gives counter-clockwise > 0, clockwise < 0, collinear 0', () => {
    expect(orient2d(0, 0, 1, 0, 0, 1)).toBeGreaterThan(0);
    expect(orient2d(0, 0, 0, 1, 1, 0)).toBeLessThan(0);
    expect(orient2d(0, 0, 1, 1, 2, 2)).toBe(0);
    expect(orientation(0, 0, 1, 1, 3, 3)).toBe(0);
  });

  it('is exactly 0 when the third point repeats one of the first two, whatever the decimals', () => {
    const a = [160.6, -55.95] as const;
    const b = [-170.123456789, 25.89] as const;
    expect(orient2d(a[0], a[1], b[0], b[1], a[0], a[1])).toBe(0);
    expect(orient2d(a[0], a[1], b[0], b[1], b[0], b[1])).toBe(0);
  });

  it('is exact on the classic near-collinear grid where plain doubles fail', () => {
    // Kettner et al., "Classroom examples of robustness problems": p = (0.5 + i u, 0.5 + j u)
    // against the line (12, 12)-(24, 24), u = 2^-53.
    const u = 2 ** -53;
    let naiveWrong = 0;
    for (let i = 0; i < 64; i++) {
      for (let j = 0; j < 64; j++) {
        const px = 0.5 + i * u;
        const py = 0.5 + j * u;
        const want = exactSign(px, py, 12, 12, 24, 24);
        expect(orientation(px, py, 12, 12, 24, 24)).toBe(want);
        if (naiveSign(px, py, 12, 12, 24, 24) !== want) naiveWrong++;
      }
    }
    expect(naiveWrong).toBeGreaterThan(100); // the test can tell exact from naive
  });

  it('matches BigInt arithmetic for random nearly collinear lon/lat points', () => {
    const lon = fc.double({ min: -180, max: 180, noNaN: true });
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    fc.assert(
      fc.property(
        lon,
        lat,
        lon,
        lat,
        fc.double({ min: -1, max: 2, noNaN: true }),
        (ax, ay, bx, by, t) => {
          // c computed on the line a-b in floating point: almost never exactly on it.
          const cx = ax + t * (bx - ax);
          const cy = ay + t * (by - ay);
          const want = exactSign(ax, ay, bx, by, cx, cy);
          expect(orientation(ax, ay, bx, by, cx, cy)).toBe(want);
          // Swapping two points flips the sign; rotating them keeps it.
          expect(orientation(bx, by, ax, ay, cx, cy)).toBe(-want || 0);
          expect(orientation(bx, by, cx, cy, ax, ay)).toBe(want);
        },
      ),
      { numRuns: 3000, seed: 20240517 },
    );
  });

  it('matches BigInt arithmetic for any finite doubles, subnormal and huge included', () => {
    const any = fc.double({ noNaN: true, noDefaultInfinity: true });
    const tiny = fc.double({ min: -1e-300, max: 1e-300, noNaN: true });
    const coord = fc.oneof(any, tiny, fc.constantFrom(0, 1, -1, 180, 5e-324));
    fc.assert(
      fc.property(
        coord,
        coord,
        coord,
        coord,
        fc.double({ min: -1, max: 2, noNaN: true }),
        (ax, ay, bx, by, t) => {
          const cx = ax + t * (bx - ax);
          const cy = ay + t * (by - ay);
          fc.pre(Number.isFinite(cx) && Number.isFinite(cy));
          expect(orientation(ax, ay, bx, by, cx, cy)).toBe(exactSign(ax, ay, bx, by, cx, cy));
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
  });
});
