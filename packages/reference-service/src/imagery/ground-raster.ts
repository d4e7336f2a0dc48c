/**
 * The ground under a picture: reflectance spectra and elevation for every pixel of a
 * `width` x `height` image spanning four ground corners (`quicklookCorners`). The slowly
 * varying land fields (kilometres across) are evaluated on a coarse grid and interpolated,
 * the parcels and blocks per pixel, so an overview costs a fraction of the noise evaluations.
 */
import { BAND_COUNT, FIELD_COUNT, groundFrom, landFields, seasonDay, sphereKm } from './land';

export type Corners = readonly (readonly [number, number])[];

export interface GroundRaster {
  readonly width: number;
  readonly height: number;
  /** `BAND_COUNT` reflectances per pixel (land.ts GROUND_BANDS order). */
  readonly spectra: Float32Array;
  /** 0..1 terrain height per pixel. */
  readonly elevation: Float32Array;
  /** Ground size of one pixel, km (mean of both axes). */
  readonly pixelKm: number;
}

/** Ground position of image point (u, v) in 0..1, bilinear between the corners, into `out`. */
export function groundPointInto(c: Corners, u: number, v: number, out: Float64Array): void {
  const a = c[0]!;
  const b = c[1]!;
  const cc = c[2]!;
  const d = c[3]!;
  const t0 = a[0] + (b[0] - a[0]) * u;
  const t1 = a[1] + (b[1] - a[1]) * u;
  const b0 = d[0] + (cc[0] - d[0]) * u;
  const b1 = d[1] + (cc[1] - d[1]) * u;
  out[0] = t0 + (b0 - t0) * v;
  out[1] = t1 + (b1 - t1) * v;
}

const KM_PER_DEG_LAT = 110.57;
const KM_PER_DEG_LON = 111.32;

/** Ground length in km between two [lon, lat] points (equirectangular; scene-sized distances). */
export function groundKm(p: readonly [number, number], q: readonly [number, number]): number {
  const lat = ((p[1] + q[1]) / 2) * (Math.PI / 180);
  const dx = (q[0] - p[0]) * KM_PER_DEG_LON * Math.cos(lat);
  const dy = (q[1] - p[1]) * KM_PER_DEG_LAT;
  return Math.hypot(dx, dy);
}

/** Width and height in pixels for a picture of these corners whose long side is `size`. */
export function pictureSize(c: Corners, size: number): { width: number; height: number } {
  const w = (groundKm(c[0]!, c[1]!) + groundKm(c[3]!, c[2]!)) / 2;
  const h = (groundKm(c[0]!, c[3]!) + groundKm(c[1]!, c[2]!)) / 2;
  if (!(w > 0) || !(h > 0)) return { width: size, height: size };
  const scale = size / Math.max(w, h);
  return {
    width: Math.max(16, Math.round(w * scale)),
    height: Math.max(16, Math.round(h * scale)),
  };
}

export function groundRaster(
  corners: Corners,
  width: number,
  height: number,
  datetimeMs: number,
): GroundRaster {
  const n = width * height;
  const spectra = new Float32Array(n * BAND_COUNT);
  const elevation = new Float32Array(n);
  const p = new Float64Array(2);
  groundPointInto(corners, 0.5, 0.5, p);
  const absLat = Math.abs(p[1]!);
  const doy = seasonDay(datetimeMs, p[1]!);

  // The place of every pixel.
  const wx = new Float64Array(n);
  const wy = new Float64Array(n);
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x++) {
      groundPointInto(corners, (x + 0.5) / width, v, p);
      const i = y * width + x;
      wx[i] = p[0]!;
      wy[i] = p[1]!;
    }
  }
  const pixelKm =
    (groundKm(corners[0]!, corners[1]!) / width + groundKm(corners[0]!, corners[3]!) / height) / 2;

  // Land fields vary over kilometres: evaluate them every few pixels and interpolate.
  const step = Math.max(width, height) > 512 ? 4 : 2;
  const gw = Math.ceil((width - 1) / step) + 1;
  const gh = Math.ceil((height - 1) / step) + 1;
  const grid = new Float32Array(gw * gh * FIELD_COUNT);
  const sphere = new Float64Array(3);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      const i = Math.min(height - 1, gy * step) * width + Math.min(width - 1, gx * step);
      sphereKm(wx[i]!, wy[i]!, sphere, 0);
      landFields(sphere, grid, (gy * gw + gx) * FIELD_COUNT);
    }
  const f = new Float32Array(FIELD_COUNT);
  // Locals: an imported binding may be a getter per read (tsx/esbuild module wrappers).
  const fields = FIELD_COUNT;
  const bandCount = BAND_COUNT;
  for (let y = 0; y < height; y++) {
    const gy = Math.min(gh - 2, Math.floor(y / step));
    const ty = gh > 1 ? Math.min(1, (y - gy * step) / step) : 0;
    for (let x = 0; x < width; x++) {
      const gx = Math.min(gw - 2, Math.floor(x / step));
      const tx = gw > 1 ? Math.min(1, (x - gx * step) / step) : 0;
      const i00 = (Math.max(0, gy) * gw + Math.max(0, gx)) * fields;
      const i10 = i00 + (gw > 1 ? fields : 0);
      const i01 = i00 + (gh > 1 ? gw * fields : 0);
      const i11 = i01 + (gw > 1 ? fields : 0);
      for (let k = 0; k < fields; k++) {
        const top = grid[i00 + k]! + (grid[i10 + k]! - grid[i00 + k]!) * tx;
        const bot = grid[i01 + k]! + (grid[i11 + k]! - grid[i01 + k]!) * tx;
        f[k] = top + (bot - top) * ty;
      }
      const i = y * width + x;
      elevation[i] = groundFrom(f, 0, wx[i]!, wy[i]!, doy, absLat, spectra, i * bandCount);
    }
  }
  return { width, height, spectra, elevation, pixelKm };
}
