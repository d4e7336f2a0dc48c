/**
 * Quicklooks: a scene's picture, rendered from what its STAC item says. The ground comes from
 * the place (`land.ts`, the same for every acquisition of it), everything else from the
 * acquisition: season from the date, light, relief shading and shadow length from the sun,
 * and clouds seeded from the scene id with their share of pixels equal to `eo:cloud_cover`.
 */
import { quicklookCorners, type Geometry } from '@eo/domain';
import { groundRaster, pictureSize, type Corners } from './ground-raster';
import { BAND_COUNT } from './land';
import { fbm, seedOf } from './noise';
import type { RasterImage } from './png';

/** Bump when the picture of the same inputs changes (it is part of every stored key and ETag). */
export const RENDERER_VERSION = 1;

export interface QuicklookScene {
  /** The acquisition (seeds the clouds and the haze). */
  readonly id: string;
  /** Ground corners of the image's top-left, top-right, bottom-right, bottom-left. */
  readonly corners: Corners;
  readonly datetimeMs: number;
  /** 0..100, the share of cloudy pixels. */
  readonly cloudCover: number;
  readonly sunElevation: number;
  readonly sunAzimuth: number;
}

interface StacLike {
  id?: unknown;
  geometry?: unknown;
  bbox?: unknown;
  properties?: Record<string, unknown>;
}

const num = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;

/** What a quicklook depends on, from a STAC item (archive feature or catalog record details); null when it has no place. */
export function quicklookSceneOf(item: StacLike): QuicklookScene | null {
  const corners = quicklookCorners(
    item.geometry as Geometry | null | undefined,
    Array.isArray(item.bbox) ? (item.bbox as number[]) : null,
  );
  if (!corners) return null;
  const p = item.properties ?? {};
  const t = Date.parse(String(p.datetime ?? ''));
  return {
    id: String(item.id ?? ''),
    corners,
    datetimeMs: Number.isFinite(t) ? t : 0,
    cloudCover: Math.min(100, Math.max(0, num(p['eo:cloud_cover'], 0))),
    sunElevation: Math.min(90, Math.max(1, num(p['view:sun_elevation'], 45))),
    sunAzimuth: num(p['view:sun_azimuth'], 160),
  };
}

/** The threshold above which `share` (0..1) of `values` lie (a histogram quantile). */
export function upperQuantile(values: Float32Array, share: number): number {
  if (share <= 0) return Infinity;
  if (share >= 1) return -Infinity;
  const BINS = 4096;
  const hist = new Uint32Array(BINS);
  for (let i = 0; i < values.length; i++)
    hist[Math.min(BINS - 1, Math.max(0, Math.floor(values[i]! * BINS)))]!++;
  let above = 0;
  const want = share * values.length;
  for (let b = BINS - 1; b >= 0; b--) {
    above += hist[b]!;
    if (above >= want) return b / BINS;
  }
  return 0;
}

/** Display encoding: gamma 1/2.2 of a 0..1 linear value (a table: Math.pow per channel was a third of the time). */
const GAMMA_STEPS = 4096;
const GAMMA = Uint8Array.from({ length: GAMMA_STEPS + 1 }, (_, i) =>
  Math.round(255 * Math.pow(i / GAMMA_STEPS, 0.45)),
);
function toByte(x: number): number {
  return x <= 0 ? 0 : x >= 1 ? 255 : GAMMA[Math.round(x * GAMMA_STEPS)]!;
}

/**
 * Cloud density at picture position (x, y) in pixels of a picture whose long side is `long`:
 * seeded by the acquisition, in picture space, so every size of picture (and the scene's COG,
 * `cog/render.ts`) sees the same clouds.
 */
export function cloudAt(seed: number, x: number, y: number, long: number): number {
  const ox = (seed % 997) * 3.1;
  const oy = ((seed >>> 10) % 991) * 2.7;
  return fbm(ox + (x / long) * 5, oy + (y / long) * 5, seed, 5);
}

/**
 * Cloud density per pixel (`cloudAt`); evaluated every other pixel on large pictures and
 * interpolated (cloud detail is coarser than two pixels there).
 */
export function cloudField(seed: number, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  const long = Math.max(width, height);
  const step = long > 512 ? 2 : 1;
  for (let y = 0; y < height; y += step)
    for (let x = 0; x < width; x += step) out[y * width + x] = cloudAt(seed, x, y, long);
  if (step === 1) return out;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (y % 2 === 0 && x % 2 === 0) continue;
      const x0 = x - (x % 2);
      const y0 = y - (y % 2);
      const x1 = Math.min(x0 + 2, width - 1 - ((width - 1) % 2));
      const y1 = Math.min(y0 + 2, height - 1 - ((height - 1) % 2));
      const tx = x1 > x0 ? (x - x0) / (x1 - x0) : 0;
      const ty = y1 > y0 ? (y - y0) / (y1 - y0) : 0;
      const top = out[y0 * width + x0]! + (out[y0 * width + x1]! - out[y0 * width + x0]!) * tx;
      const bot = out[y1 * width + x0]! + (out[y1 * width + x1]! - out[y1 * width + x0]!) * tx;
      out[y * width + x] = top + (bot - top) * ty;
    }
  return out;
}

/** Cloud opacity from density: 0.5 exactly at the threshold, so the cloudy share is the cover. */
export const cloudAlpha = (density: number, threshold: number): number =>
  Math.min(1, Math.max(0, (density - threshold) / 0.06 + 0.5));

/** Cloud shadows: how far they fall from their cloud, in pixels of a `width` x `height` picture. */
export function shadowOffset(
  sunElevation: number,
  sunAzimuth: number,
  width: number,
  height: number,
) {
  const elevRad = (sunElevation * Math.PI) / 180;
  const azRad = (sunAzimuth * Math.PI) / 180;
  const shadowPx = Math.round(Math.max(width, height) / 80 / Math.tan(Math.max(elevRad, 0.15)));
  // image y grows southwards (north-up approximation)
  return {
    dx: Math.round(Math.sin(azRad) * shadowPx),
    dy: Math.round(-Math.cos(azRad) * shadowPx),
  };
}

/** Renders an RGB quicklook of a scene whose long side is `size` pixels. Pure: same scene, same pixels. */
export function renderQuicklook(scene: QuicklookScene, size: number): RasterImage {
  const { width, height } = pictureSize(scene.corners, size);
  const ground = groundRaster(scene.corners, width, height, scene.datetimeMs);
  const { spectra, elevation: elev } = ground;
  const n = width * height;

  const seed = seedOf(scene.id);
  const cloud = cloudField(seed, width, height);
  const threshold = upperQuantile(cloud, scene.cloudCover / 100);
  // Cloud opacity: 0.5 exactly at the threshold, so the cloudy share is the cover.
  const alpha = new Float32Array(n);
  for (let i = 0; i < n; i++) alpha[i] = cloudAlpha(cloud[i]!, threshold);

  // Light: dimmer with a low sun, relief lit from the sun's azimuth, longer cloud shadows.
  const elevRad = (scene.sunElevation * Math.PI) / 180;
  const azRad = (scene.sunAzimuth * Math.PI) / 180;
  const light = 0.45 + 0.75 * Math.sin(elevRad);
  const sunX = Math.sin(azRad);
  const sunY = -Math.cos(azRad); // image y grows southwards (north-up approximation)
  const relief = Math.min(3, 1 / Math.tan(Math.max(elevRad, 0.1))) * (8 / ground.pixelKm);
  const shadow = shadowOffset(scene.sunElevation, scene.sunAzimuth, width, height);
  const haze = 0.02 + 0.05 * ((seed >>> 20) / 4096);
  const warm = Math.max(0, 1 - scene.sunElevation / 30) * 0.12; // low sun: redder light

  const pixels = new Uint8Array(n * 3);
  const bandCount = BAND_COUNT; // a local: an imported binding may be a getter per read
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const gx = elev[y * width + Math.min(width - 1, x + 1)]! - elev[i]!;
      const gy = elev[Math.min(height - 1, y + 1) * width + x]! - elev[i]!;
      const shade = Math.min(1.4, Math.max(0.5, 1 + relief * (gx * sunX + gy * sunY)));
      const sx = x - shadow.dx;
      const sy = y - shadow.dy;
      const inShadow =
        sx >= 0 && sy >= 0 && sx < width && sy < height ? alpha[sy * width + sx]! * 0.55 : 0;
      const a = alpha[i]!;
      const k = light * shade * (1 - inShadow) * 2.6;
      const o = i * bandCount;
      const white = Math.min(1, light) * (0.88 + 0.12 * cloud[i]!);
      pixels[i * 3] = toByte((spectra[o + 2]! * k * (1 + warm) + haze) * (1 - a) + white * a);
      pixels[i * 3 + 1] = toByte((spectra[o + 1]! * k + haze) * (1 - a) + white * a);
      pixels[i * 3 + 2] = toByte((spectra[o]! * k * (1 - warm) + haze * 1.3) * (1 - a) + white * a);
    }
  }
  return { width, height, channels: 3, pixels };
}
