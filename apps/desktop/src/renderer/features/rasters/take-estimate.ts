/**
 * What taking a site offline will cost before it starts: the window's pixels at the resolution
 * (the area's box; the stored window is whole 512-px tiles, so a little more), every band as
 * uint16, DEFLATE with a predictor on reflectance (about half: `COMPRESSED_SHARE`), the 16 KiB
 * header; and the time that takes on a link of a given rate. A guess shown as one: the download
 * says the exact bytes once planned.
 */

/** Compressed share of the raw uint16 samples (measured on the service's scene COGs: ~0.5). */
export const COMPRESSED_SHARE = 0.5;
export const HEADER_BYTES = 16 * 1024;
/** Links a field team meets (bench-kit's simulated ones), bits per second. */
export const LINKS = [
  { label: '2 Mbit/s', bitsPerSecond: 2e6 },
  { label: '20 Mbit/s', bitsPerSecond: 20e6 },
] as const;

const M_PER_DEG = 111_320;

/** Square metres of a lon/lat box (equirectangular at its middle latitude: fine for sites). */
export function boxAreaM2(box: readonly [number, number, number, number]): number {
  const [w, s, e, n] = box;
  const mid = ((s + n) / 2) * (Math.PI / 180);
  return Math.abs(e - w) * M_PER_DEG * Math.cos(mid) * Math.abs(n - s) * M_PER_DEG;
}

export interface TakeEstimate {
  readonly pixels: number;
  readonly bytes: number;
  /** Seconds on each of LINKS. */
  readonly seconds: readonly number[];
}

export function estimateTake(areaM2: number, metresPerPixel: number, bands: number): TakeEstimate {
  const pixels = Math.ceil(areaM2 / (metresPerPixel * metresPerPixel));
  const bytes = Math.round(pixels * bands * 2 * COMPRESSED_SHARE) + HEADER_BYTES;
  return { pixels, bytes, seconds: LINKS.map((l) => (bytes * 8) / l.bitsPerSecond) };
}
