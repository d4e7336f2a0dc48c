/**
 * A tiny seeded PRNG (mulberry32) for deterministic test data: the same seed gives the same
 * objects on every machine and run. Builders never call `Math.random`.
 */

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** Uniform float in [min, max), rounded to `decimals` places. */
  float(min: number, max: number, decimals?: number): number;
  /** True with probability `p`. */
  bool(p?: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `n` distinct items in random order (n <= items.length). */
  sample<T>(items: readonly T[], n: number): T[];
  /** Lower-case hex string of `length` digits. */
  hex(length: number): string;
  /** A UUID-shaped (version 4 layout) string. */
  uuid(): string;
}

export const DEFAULT_SEED = 20240517;

/** mulberry32: 32-bit state, period 2^32, good enough for test data. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRng(seed: number = DEFAULT_SEED): Rng {
  const next = mulberry32(seed);
  const rng: Rng = {
    next,
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
    float(min, max, decimals = 6) {
      const f = 10 ** decimals;
      const v = Math.round((min + next() * (max - min)) * f) / f;
      // Rounding may reach `max`; stay inside the half-open range.
      return v >= max ? Math.floor((max - 1 / f) * f) / f : v;
    },
    bool(p = 0.5) {
      return next() < p;
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    sample(items, n) {
      const pool = [...items];
      const out: (typeof pool)[number][] = [];
      while (out.length < n && pool.length > 0) {
        out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
      }
      return out;
    },
    hex(length) {
      let s = '';
      while (s.length < length) s += Math.floor(next() * 16).toString(16);
      return s;
    },
    uuid() {
      const variant = '89ab'[Math.floor(next() * 4)]!;
      return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-${variant}${rng.hex(3)}-${rng.hex(12)}`;
    },
  };
  return rng;
}

/** Options every builder takes: a seed, or an `rng` shared across calls (for distinct objects). */
export interface BuildOptions {
  /** Seed of a fresh PRNG (default `DEFAULT_SEED`); ignored when `rng` is given. */
  readonly seed?: number;
  /** A PRNG to draw from; pass the same one to several builders to get different objects. */
  readonly rng?: Rng;
}

export function rngOf(options: BuildOptions | undefined): Rng {
  return options?.rng ?? createRng(options?.seed ?? DEFAULT_SEED);
}
