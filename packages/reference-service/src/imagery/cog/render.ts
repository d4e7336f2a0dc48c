/**
 * A scene's pixels, tile by tile: uint16 surface reflectance (× 10,000; 0 outside the
 * footprint) of every band, from the same ground and clouds as its quicklook. Pure: the same
 * scene and tile give the same samples on any thread and machine.
 *
 * Cheap by construction: what varies slowly (the place of a pixel in lon/lat and in the
 * quicklook's picture, the land fields, cloud and shadow opacity) is computed on a grid every
 * ~150 m of ground and interpolated; per pixel only the ground's cover (parcels, blocks,
 * water, forest: `groundFrom`) and a little sensor noise.
 */
import { QUICKLOOK_PIXELS, fromUtm, utmOfEpsg } from '@eo/domain';
import { pictureSize } from '../ground-raster';
import { FIELD_COUNT, bandOf, groundFrom, landFields, seasonDay, sphereKm } from '../land';
import { hash2, seedOf } from '../noise';
import { cloudAlpha, cloudAt, cloudField, shadowOffset, upperQuantile } from '../quicklook';
import type { SceneRaster } from './scene';

/** What a render needs once per scene (the cloud threshold costs a quicklook's cloud field). */
export interface SceneLight {
  readonly seed: number;
  /** The overview quicklook's size: clouds live in its picture space. */
  readonly pictureW: number;
  readonly pictureH: number;
  readonly threshold: number;
  readonly shadowDx: number;
  readonly shadowDy: number;
  readonly haze: number;
  readonly doy: number;
  readonly absLat: number;
}

export function sceneLight(scene: SceneRaster): SceneLight {
  const { look } = scene;
  const { width, height } = pictureSize(look.corners, QUICKLOOK_PIXELS.overview);
  const seed = seedOf(look.id);
  const threshold = upperQuantile(cloudField(seed, width, height), look.cloudCover / 100);
  const shadow = shadowOffset(look.sunElevation, look.sunAzimuth, width, height);
  const lat = look.corners.reduce((s, c) => s + c[1], 0) / look.corners.length;
  return {
    seed,
    pictureW: width,
    pictureH: height,
    threshold,
    shadowDx: shadow.dx,
    shadowDy: shadow.dy,
    haze: 0.01 + 0.02 * ((seed >>> 20) / 4096),
    doy: seasonDay(look.datetimeMs, lat),
    absLat: Math.abs(lat),
  };
}

/** Reflectance of cloud tops per band (bright in the visible, darker in the SWIR). */
function cloudReflectance(common: string): number {
  switch (common) {
    case 'nir':
      return 0.74;
    case 'rededge':
      return 0.77;
    case 'swir16':
      return 0.52;
    case 'swir22':
      return 0.38;
    default:
      return 0.8;
  }
}

/**
 * Each band's reflectance as weighted entries of the ground spectrum (what `bandOf` reads):
 * `terms[b]` is a list of [entry, weight], usually one.
 */
function bandTerms(commons: readonly string[]): {
  entries: Int32Array;
  weights: Float64Array;
  starts: Int32Array;
} {
  const entries: number[] = [];
  const weights: number[] = [];
  const starts = [0];
  const probe = new Float32Array(6);
  for (const c of commons) {
    for (let k = 0; k < 6; k++) {
      probe.fill(0);
      probe[k] = 1;
      const w = bandOf(c, probe, 0);
      if (w !== 0) {
        entries.push(k);
        weights.push(w);
      }
    }
    starts.push(entries.length);
  }
  return {
    entries: Int32Array.from(entries),
    weights: Float64Array.from(weights),
    starts: Int32Array.from(starts),
  };
}

/** (u, v) in 0..1 of (lon, lat) in the quad of `corners` (TL, TR, BR, BL): inverse bilinear by Newton. */
function quadUv(
  c: readonly (readonly [number, number])[],
  lon: number,
  lat: number,
): [number, number] {
  const [a, b, cc, d] = [c[0]!, c[1]!, c[2]!, c[3]!];
  // Longitudes near the first corner's (a footprint across the antimeridian).
  const w = (x: number) => x - 360 * Math.round((x - a[0]) / 360);
  const ax = a[0];
  const bx = w(b[0]);
  const cx = w(cc[0]);
  const dx = w(d[0]);
  const x = w(lon);
  let u = 0.5;
  let v = 0.5;
  for (let i = 0; i < 6; i++) {
    const px = (1 - v) * ((1 - u) * ax + u * bx) + v * ((1 - u) * dx + u * cx) - x;
    const py = (1 - v) * ((1 - u) * a[1] + u * b[1]) + v * ((1 - u) * d[1] + u * cc[1]) - lat;
    const dxu = (1 - v) * (bx - ax) + v * (cx - dx);
    const dyu = (1 - v) * (b[1] - a[1]) + v * (cc[1] - d[1]);
    const dxv = (1 - u) * (dx - ax) + u * (cx - bx);
    const dyv = (1 - u) * (d[1] - a[1]) + u * (cc[1] - b[1]);
    const det = dxu * dyv - dxv * dyu;
    if (det === 0) break;
    u -= (px * dyv - py * dxv) / det;
    v -= (py * dxu - px * dyu) / det;
  }
  return [u, v];
}

/** Values kept per grid point: lon, lat, u, v, the land fields, cloud and shadow opacity, cloud density. */
const LON = 0;
const LAT = 1;
const U = 2;
const V = 3;
const F = 4;
const ALPHA = F + FIELD_COUNT;
const SHADOW = ALPHA + 1;
const DENSITY = SHADOW + 1;
const STRIDE = DENSITY + 1;
/** Ground distance between grid points, metres at most (the quicklook's fields are ~160 m apart). */
const GRID_M = 150;

export interface RenderedTile {
  /** `size`² pixels × bands, pixel-interleaved. */
  readonly samples: Uint16Array;
  /** Pixels inside the footprint (0: the tile is empty, stored sparse). */
  readonly inside: number;
}

/**
 * Tile (tx, ty) of level `level` (0 full resolution, N: pixels 2^N times larger) of a scene,
 * `size` pixels square (padding outside the level is nodata).
 */
export function renderSceneTile(
  scene: SceneRaster,
  light: SceneLight,
  level: number,
  tx: number,
  ty: number,
  size: number,
): RenderedTile {
  const scale = 2 ** level;
  const gt = scene.geoTransform;
  const pixelM = Math.hypot(gt[1], gt[4]) * scale;
  let step = 1;
  while (step < 64 && step * 2 * pixelM <= GRID_M && size % (step * 2) === 0) step *= 2;
  const n = size / step + 1;
  const grid = new Float64Array(n * n * STRIDE);
  const zone = utmOfEpsg(scene.epsg)!;
  const { look } = scene;
  const long = Math.max(light.pictureW, light.pictureH);
  const sphere = new Float64Array(3);
  const fields = new Float32Array(FIELD_COUNT);
  for (let gy = 0; gy < n; gy++)
    for (let gx = 0; gx < n; gx++) {
      const col = (tx * size + gx * step) * scale;
      const row = (ty * size + gy * step) * scale;
      const x = gt[0] + col * gt[1] + row * gt[2];
      const y = gt[3] + col * gt[4] + row * gt[5];
      const [lon, lat] = fromUtm(x, y, zone.zone, zone.south);
      const [u, v] = quadUv(look.corners, lon, lat);
      const o = (gy * n + gx) * STRIDE;
      grid[o + LON] = lon;
      grid[o + LAT] = lat;
      grid[o + U] = u;
      grid[o + V] = v;
      sphereKm(lon, lat, sphere, 0);
      landFields(sphere, fields, 0);
      for (let k = 0; k < FIELD_COUNT; k++) grid[o + F + k] = fields[k]!;
      // Clouds and their shadows in the quicklook's picture space (its pixel coordinates).
      const px = u * light.pictureW - 0.5;
      const py = v * light.pictureH - 0.5;
      const density = cloudAt(light.seed, px, py, long);
      grid[o + DENSITY] = density;
      grid[o + ALPHA] = cloudAlpha(density, light.threshold);
      grid[o + SHADOW] =
        cloudAlpha(
          cloudAt(light.seed, px - light.shadowDx, py - light.shadowDy, long),
          light.threshold,
        ) * 0.55;
    }

  const nb = scene.bands.length;
  const commons = scene.bands.map((b) => b.commonName);
  // Bands as weighted spectrum entries: the per-pixel loop indexes instead of comparing names.
  const { entries, weights, starts } = bandTerms(commons);
  const clouds = commons.map(cloudReflectance);
  const hazes = commons.map((c) =>
    c === 'blue' || c === 'coastal' ? 1.3 : c === 'green' ? 1 : c === 'red' ? 0.7 : 0.2,
  );
  const samples = new Uint16Array(size * size * nb);
  const spectrum = new Float32Array(6);
  const f = new Float32Array(FIELD_COUNT);
  const levelW = Math.ceil(scene.width / scale);
  const levelH = Math.ceil(scene.height / scale);
  const fieldCount = FIELD_COUNT; // a local: an imported binding may be a getter per read
  // Per row: the grid's values interpolated to the row (every grid column), then per pixel
  // between two columns. No closure in these loops (a bundler's keep-names helper would wrap
  // one per call).
  const rowVals = new Float64Array(n * STRIDE);
  // The grid column left of each pixel's centre, and how far along to the next.
  const gxOf = new Int32Array(size);
  const fxOf = new Float64Array(size);
  for (let x = 0; x < size; x++) {
    gxOf[x] = Math.min(n - 2, Math.floor((x + 0.5) / step));
    fxOf[x] = (x + 0.5) / step - gxOf[x]!;
  }
  let inside = 0;
  for (let y = 0; y < size; y++) {
    const row = ty * size + y;
    if (row >= levelH) break;
    const gy = Math.min(n - 2, Math.floor((y + 0.5) / step));
    const fy = (y + 0.5) / step - gy;
    const top = gy * n * STRIDE;
    const bot = top + n * STRIDE;
    for (let k = 0; k < n * STRIDE; k++)
      rowVals[k] = grid[top + k]! + (grid[bot + k]! - grid[top + k]!) * fy;
    for (let x = 0; x < size; x++) {
      const col = tx * size + x;
      if (col >= levelW) break;
      const fx = fxOf[x]!;
      const l = gxOf[x]! * STRIDE;
      const r = l + STRIDE;
      const u = rowVals[l + U]! + (rowVals[r + U]! - rowVals[l + U]!) * fx;
      const v = rowVals[l + V]! + (rowVals[r + V]! - rowVals[l + V]!) * fx;
      if (u < 0 || u > 1 || v < 0 || v > 1) continue; // outside the footprint: nodata
      inside++;
      for (let k = 0; k < fieldCount; k++)
        f[k] = rowVals[l + F + k]! + (rowVals[r + F + k]! - rowVals[l + F + k]!) * fx;
      const lon = rowVals[l + LON]! + (rowVals[r + LON]! - rowVals[l + LON]!) * fx;
      const lat = rowVals[l + LAT]! + (rowVals[r + LAT]! - rowVals[l + LAT]!) * fx;
      groundFrom(f, 0, lon, lat, light.doy, light.absLat, spectrum, 0);
      // Clear sky (no cloud, no shadow at either column) skips the cloud terms.
      let a = 0;
      let ground = 1;
      let white = 0;
      if (
        rowVals[l + ALPHA]! + rowVals[r + ALPHA]! + rowVals[l + SHADOW]! + rowVals[r + SHADOW]! >
        0
      ) {
        a = rowVals[l + ALPHA]! + (rowVals[r + ALPHA]! - rowVals[l + ALPHA]!) * fx;
        const shadow = rowVals[l + SHADOW]! + (rowVals[r + SHADOW]! - rowVals[l + SHADOW]!) * fx;
        ground = (1 - a) * (1 - shadow);
        white =
          0.88 +
          0.12 * (rowVals[l + DENSITY]! + (rowVals[r + DENSITY]! - rowVals[l + DENSITY]!) * fx);
      }
      // Sensor noise: two bits of one hash per band, about ±1 count.
      const h = (hash2(col, row, light.seed + level) * 4294967296) >>> 0;
      const i = (y * size + x) * nb;
      for (let b = 0; b < nb; b++) {
        let refl = 0;
        for (let k = starts[b]!; k < starts[b + 1]!; k++)
          refl += spectrum[entries[k]!]! * weights[k]!;
        const value = refl * ground + light.haze * hazes[b]! * (1 - a) + clouds[b]! * white * a;
        const noise = ((h >>> ((b & 15) * 2)) & 3) - 1.5;
        samples[i + b] = Math.max(1, Math.min(65535, Math.round(value * 10_000 + noise)));
      }
    }
  }
  return { samples, inside };
}
