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

/**
 * Round trips a take spends besides its bytes: the download asked for and followed, the file's
 * header read, the first batch of tiles (later ones overlap: the reader keeps several in flight).
 */
export const TAKE_ROUND_TRIPS = 4;

/** The link a take's time is told on: as measured (rasters.link), or the fixed LINKS. */
export type LinkTime =
  | {
      readonly measured: true;
      readonly seconds: number;
      readonly bitsPerSecond: number;
      readonly roundTripMs: number | null;
      readonly rateFrom: string;
    }
  | {
      readonly measured: false;
      /** Seconds on each of LINKS (plus the measured round trips, when only those are known). */
      readonly seconds: readonly number[];
      readonly roundTripMs: number | null;
    };

/** The time `bytes` will take: on the measured rate when there is one, else on LINKS. */
export function timeOnLink(
  bytes: number,
  link: {
    bitsPerSecond: number | null;
    roundTripMs: number | null;
    rateFrom: string | null;
  } | null,
): LinkTime {
  const rtt = link?.roundTripMs ?? null;
  const waits = rtt === null ? 0 : (TAKE_ROUND_TRIPS * rtt) / 1000;
  if (link?.bitsPerSecond) {
    return {
      measured: true,
      seconds: (bytes * 8) / link.bitsPerSecond + waits,
      bitsPerSecond: link.bitsPerSecond,
      roundTripMs: rtt,
      rateFrom: link.rateFrom ?? 'the link',
    };
  }
  return {
    measured: false,
    seconds: LINKS.map((l) => (bytes * 8) / l.bitsPerSecond + waits),
    roundTripMs: rtt,
  };
}

/** "12 s", "4 min". */
export const formatSeconds = (s: number) =>
  s < 90 ? `${Math.max(1, Math.round(s))} s` : `${Math.round(s / 60)} min`;

/** "2.4 Mbit/s", "640 kbit/s". */
export function formatRate(bitsPerSecond: number): string {
  if (bitsPerSecond >= 1e6) return `${(bitsPerSecond / 1e6).toPrecision(2)} Mbit/s`;
  return `${Math.max(1, Math.round(bitsPerSecond / 1e3))} kbit/s`;
}
