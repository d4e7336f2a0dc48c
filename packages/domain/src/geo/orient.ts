/**
 * The one geometric predicate everything in `src/geo` rests on: the exact sign of the 2x2
 * orientation determinant of three points.
 *
 * Why exact: search must treat "touching" footprints (a shared edge, a shared vertex, a box edge
 * on a footprint edge) as intersecting, and the server, the mirror and this oracle must agree.
 * A plain floating-point determinant can return a tiny non-zero value (either sign) for three
 * collinear points, so touching would depend on rounding. The determinant is evaluated in
 * floating point first; only when the result is within the rounding error bound (Shewchuk's
 * `ccwerrboundA`) is it recomputed exactly with floating-point expansions (error-free sums and
 * products). Those are exact while products neither overflow nor underflow, which holds for
 * any longitude and latitude; for the remaining finite inputs (a non-zero magnitude below
 * 2^-450 or above 2^450) the sign comes from BigInt arithmetic instead. Exact for every finite
 * input.
 */

/** Half an ulp of 1: the unit roundoff of IEEE doubles. */
const EPSILON = 2 ** -53;
/** Shewchuk's bound on the error of the floating-point determinant, relative to its terms. */
const ERROR_BOUND = (3 + 16 * EPSILON) * EPSILON;
/** Below this the filter's terms may have lost bits to underflow: decide exactly instead. */
const FILTER_FLOOR = 2 ** -900;
/** Veltkamp splitter for doubles: 2^ceil(53/2) + 1. */
const SPLITTER = 2 ** 27 + 1;

/**
 * Orientation of c relative to the directed line a->b:
 * > 0 when a, b, c turn counter-clockwise (c left of a->b), < 0 clockwise, exactly 0 when collinear.
 * Only the sign is meaningful (the magnitude is approximate).
 */
export function orient2d(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  const left = (bx - ax) * (cy - ay);
  const right = (by - ay) * (cx - ax);
  const det = left - right;
  const sum = Math.abs(left) + Math.abs(right);
  // The bound is relative, so it only holds while no product has underflowed (sum > 2^-900).
  if (sum > FILTER_FLOOR && (det > ERROR_BOUND * sum || -det > ERROR_BOUND * sum)) return det;
  // The common degenerate case (axis-aligned edges, shared coordinates): both products are zero
  // because a difference is exactly zero (a rounded difference of doubles is 0 only when they
  // are equal), not because a product underflowed.
  if (left === 0 && right === 0 && (bx === ax || cy === ay) && (by === ay || cx === ax)) return 0;
  if (outsideExpansionRange(ax, ay, bx, by, cx, cy)) return orient2dBigInt(ax, ay, bx, by, cx, cy);
  return orient2dExact(ax, ay, bx, by, cx, cy);
}

/** Sign (-1, 0, 1) of `orient2d`. */
export function orientation(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): -1 | 0 | 1 {
  const d = orient2d(ax, ay, bx, by, cx, cy);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/**
 * det = bx*cy - bx*ay - ax*cy - by*cx + by*ax + ay*cx, each product split into an exact
 * (value, error) pair and all twelve doubles summed into a non-overlapping expansion. The
 * sign of such an expansion is the sign of its largest non-zero component, which is the last.
 * Rare (near-degenerate inputs only), so the small array allocation does not matter.
 */
function orient2dExact(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  const e: number[] = [];
  addProduct(e, bx, cy);
  addProduct(e, -bx, ay);
  addProduct(e, -ax, cy);
  addProduct(e, -by, cx);
  addProduct(e, by, ax);
  addProduct(e, ay, cx);
  for (let i = e.length - 1; i >= 0; i--) {
    const v = e[i]!;
    if (v !== 0) return v;
  }
  return 0;
}

/** Adds a*b exactly (Dekker's two-product: the rounded product plus its rounding error). */
function addProduct(e: number[], a: number, b: number): void {
  const x = a * b;
  let c = SPLITTER * a;
  const aHi = c - (c - a);
  const aLo = a - aHi;
  c = SPLITTER * b;
  const bHi = c - (c - b);
  const bLo = b - bHi;
  const y = aLo * bLo - (x - aHi * bHi - aLo * bHi - aHi * bLo);
  growExpansion(e, y);
  growExpansion(e, x);
}

/**
 * Shewchuk's GROW-EXPANSION: adds one double to a non-overlapping expansion (components in
 * increasing magnitude) exactly, in place, keeping it non-overlapping.
 */
function growExpansion(e: number[], b: number): void {
  let q = b;
  for (let i = 0; i < e.length; i++) {
    const ei = e[i]!;
    const s = q + ei;
    const bv = s - q;
    const av = s - bv;
    e[i] = q - av + (ei - bv);
    q = s;
  }
  e.push(q);
}

const TINY = 2 ** -450;
const HUGE = 2 ** 450;

/** Whether some product could underflow or overflow (then expansions are not exact). */
function outsideExpansionRange(...xs: number[]): boolean {
  for (const x of xs) {
    const m = Math.abs(x);
    if ((m !== 0 && m < TINY) || m > HUGE) return true;
  }
  return false;
}

/**
 * The determinant's sign with BigInt: each double read exactly as m * 2^e from its bits, all
 * scaled to the smallest exponent. Slow; only for magnitudes no coordinate has.
 */
function orient2dBigInt(...xs: number[]): number {
  if (!xs.every(Number.isFinite)) return NaN;
  const parts = xs.map(exactParts);
  let e0 = Infinity;
  for (const p of parts) if (p.e < e0) e0 = p.e;
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

/** A finite double as m * 2^e with integer m, exactly, from its IEEE 754 bits. */
function exactParts(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let e = -1074; // subnormal
  if (biased !== 0) {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return { m: hi >>> 31 ? -m : m, e };
}
