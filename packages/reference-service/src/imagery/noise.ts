/**
 * Seeded value noise (a hashed integer lattice, smoothly interpolated) and its fractal sum:
 * the only randomness of the synthetic imagery, so a picture is a pure function of its inputs.
 */

/** Uniform in [0, 1) from two lattice coordinates and a seed (an integer hash, no state). */
export function hash2(ix: number, iy: number, seed: number): number {
  let h =
    Math.imul(ix | 0, 0x27d4eb2d) ^ Math.imul(iy | 0, 0x165667b1) ^ Math.imul(seed, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Value noise in [0, 1): lattice values blended with a smoothstep. */
export function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = x - ix;
  const fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash2(ix, iy, seed);
  const b = hash2(ix + 1, iy, seed);
  const c = hash2(ix, iy + 1, seed);
  const d = hash2(ix + 1, iy + 1, seed);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

/** Fractal sum of `octaves` noise layers (each twice the frequency, half the weight), in [0, 1). */
export function fbm(x: number, y: number, seed: number, octaves: number): number {
  let sum = 0;
  let amp = 0.5;
  let norm = 0;
  let f = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * valueNoise(x * f, y * f, seed + o * 101);
    norm += amp;
    amp *= 0.5;
    f *= 2.03;
  }
  return sum / norm;
}

/** A 32-bit seed from a string (FNV-1a), e.g. a scene id. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hash3(ix: number, iy: number, iz: number, seed: number): number {
  return hash2(ix ^ Math.imul(iz | 0, 0x5bd1e995), iy, seed);
}

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

// Hot paths: no closures inside (a bundler's keep-names helper would wrap each one per call).
function plane(ix: number, iy: number, k: number, sx: number, sy: number, seed: number): number {
  return lerp(
    lerp(hash3(ix, iy, k, seed), hash3(ix + 1, iy, k, seed), sx),
    lerp(hash3(ix, iy + 1, k, seed), hash3(ix + 1, iy + 1, k, seed), sx),
    sy,
  );
}

/** 3-D value noise in [0, 1) (for fields on the sphere: no seams, no shear anywhere). */
export function valueNoise3(x: number, y: number, z: number, seed: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const iz = Math.floor(z);
  const fx = x - ix;
  const fy = y - iy;
  const fz = z - iz;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const sz = fz * fz * (3 - 2 * fz);
  return lerp(plane(ix, iy, iz, sx, sy, seed), plane(ix, iy, iz + 1, sx, sy, seed), sz);
}

/** Fractal sum of 3-D value noise, in [0, 1). */
export function fbm3(x: number, y: number, z: number, seed: number, octaves: number): number {
  let sum = 0;
  let amp = 0.5;
  let norm = 0;
  let f = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * valueNoise3(x * f, y * f, z * f, seed + o * 101);
    norm += amp;
    amp *= 0.5;
    f *= 2.03;
  }
  return sum / norm;
}
