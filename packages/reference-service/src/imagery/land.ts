/**
 * The synthetic ground: one world, the same everywhere it is looked at. Land cover is a pure
 * function of the place (longitude, latitude) and the season: relief and lakes, rivers,
 * towns, forest, and fields in parcels whose crops green up and ripen on their own calendar.
 * It gives surface reflectance per band (blue, green, red, nir, swir16, swir22), so the true
 * colour quicklooks and the band math of visualizations come from the same ground.
 */
import { fbm3, hash2 } from './noise';

/** Band order of a reflectance vector. */
export const GROUND_BANDS = ['blue', 'green', 'red', 'nir', 'swir16', 'swir22'] as const;
export const BAND_COUNT = GROUND_BANDS.length;

type Spectrum = readonly [number, number, number, number, number, number];
const WATER: Spectrum = [0.07, 0.08, 0.05, 0.02, 0.01, 0.01];
const URBAN: Spectrum = [0.13, 0.14, 0.16, 0.21, 0.25, 0.22];
const FOREST: Spectrum = [0.03, 0.06, 0.035, 0.33, 0.16, 0.07];
const SOIL: Spectrum = [0.09, 0.12, 0.16, 0.23, 0.31, 0.26];
const CROP: Spectrum = [0.035, 0.09, 0.045, 0.46, 0.22, 0.1];
const RIPE: Spectrum = [0.1, 0.15, 0.2, 0.3, 0.35, 0.26];
const SNOW: Spectrum = [0.86, 0.86, 0.84, 0.76, 0.12, 0.08];

// One world: fixed seeds, so two scenes of a place see the same ground.
const S_ELEV = 11;
const S_RIVER = 23;
const S_TOWN = 37;
const S_FOREST = 41;
const S_PARCEL = 53;

const EARTH_KM = 6371;
const RAD = Math.PI / 180;

/** A place as a point on the sphere, in km (`landFields` reads noise there: one world, no seams). */
export function sphereKm(lon: number, lat: number, out: Float64Array, o: number): void {
  const c = Math.cos(lat * RAD);
  out[o] = EARTH_KM * c * Math.cos(lon * RAD);
  out[o + 1] = EARTH_KM * c * Math.sin(lon * RAD);
  out[o + 2] = EARTH_KM * Math.sin(lat * RAD);
}

/** Parcel rows are ~350 m of latitude; each row has its own east-west scale, so no shear. */
const ROW_DEG = 0.35 / 110.57;

/** Season at an instant and latitude: day of year shifted half a year south of the equator. */
export function seasonDay(datetimeMs: number, lat: number): number {
  const d = new Date(datetimeMs);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const doy = (datetimeMs - start) / 86_400_000;
  return (doy + (lat < 0 ? 182.5 : 0)) % 365;
}

/** 0..1 greenness of natural vegetation: peaks in early July (northern), least in January. */
function vegetationGreen(doy: number, absLat: number): number {
  const amplitude = Math.min(0.9, absLat / 60);
  return 1 - amplitude * 0.5 * (1 + Math.cos((2 * Math.PI * (doy - 190)) / 365));
}

/** 0..1 how deep into winter (0 in summer), stronger towards the poles. */
function winter(doy: number, absLat: number): number {
  const w = 0.5 * (1 + Math.cos((2 * Math.PI * (doy - 15)) / 365));
  return w * Math.min(1, Math.max(0, (absLat - 35) / 25));
}

/** `winter` and `vegetationGreen` of the last (day, |latitude|) asked: every pixel of a picture asks the same. */
let seasonOf = { doy: NaN, absLat: NaN, cold: 0, green: 0 };
function season(doy: number, absLat: number): { cold: number; green: number } {
  if (doy !== seasonOf.doy || absLat !== seasonOf.absLat)
    seasonOf = { doy, absLat, cold: winter(doy, absLat), green: vegetationGreen(doy, absLat) };
  return seasonOf;
}

function mix(out: Float32Array, o: number, a: Spectrum, b: Spectrum, t: number, k = 1): void {
  for (let i = 0; i < 6; i++) out[o + i] = (a[i]! + (b[i]! - a[i]!) * t) * k;
}

/** The slowly varying fields of the ground at sphere km `p`: relief, rivers, towns, forest. */
export const FIELD_COUNT = 4;
export function landFields(p: Float64Array, out: Float32Array, o: number): void {
  const x = p[0]!;
  const y = p[1]!;
  const z = p[2]!;
  out[o] = fbm3(x / 30, y / 30, z / 30, S_ELEV, 4);
  out[o + 1] = Math.abs(fbm3(x / 14, y / 14, z / 14, S_RIVER, 3) - 0.5);
  out[o + 2] = fbm3(x / 7, y / 7, z / 7, S_TOWN, 2);
  out[o + 3] = fbm3(x / 5, y / 5, z / 5, S_FOREST, 3);
}

/**
 * Writes the reflectance of the ground at (lon, lat) into `out[o..o+5]` and returns its
 * elevation. `f[fo..]`: its `landFields`; `doy`: season day (`seasonDay`); `absLat`:
 * |latitude| (for winter and snow).
 */
export function groundFrom(
  f: Float32Array,
  fo: number,
  lon: number,
  lat: number,
  doy: number,
  absLat: number,
  out: Float32Array,
  o: number,
): number {
  const elev = f[fo]!;
  const { cold, green } = season(doy, absLat);
  if (elev < 0.3) {
    mix(out, o, WATER, WATER, 0, 1 - (0.3 - elev));
    return 0.3;
  }
  if (f[fo + 1]! < 0.008 && elev < 0.6) {
    mix(out, o, WATER, SOIL, 0.15);
    return elev;
  }
  const snowLine = 0.85 - 0.4 * cold;
  if (elev > snowLine && cold > 0.05) {
    mix(out, o, SOIL, SNOW, Math.min(1, (elev - snowLine) * 12));
    return elev;
  }
  if (f[fo + 2]! > 0.74) {
    // Blocks of ~150 m: roofs and streets in slightly different greys.
    const brow = Math.floor(lat / (ROW_DEG * 0.43));
    const bx = (lon * 111.32 * Math.cos(brow * ROW_DEG * 0.43 * RAD)) / 0.15;
    const b = hash2(Math.floor(bx), brow, S_TOWN);
    mix(out, o, URBAN, SOIL, b * 0.3, 0.75 + 0.5 * b);
    return elev;
  }
  if (f[fo + 3]! > 0.62 || elev > 0.68) {
    mix(out, o, FOREST, SOIL, 0.35 * (1 - green) + 0.2 * cold);
    return elev;
  }
  // Fields: brick-laid parcels of about 500 m x 350 m, each with its own crop calendar.
  const row = Math.floor(lat / ROW_DEG);
  const x = lon * 111.32 * Math.cos((row + 0.5) * ROW_DEG * RAD);
  const col = Math.floor(x / 0.5 + hash2(row, 0, S_PARCEL));
  const p = hash2(col, row, S_PARCEL);
  const peak = 120 + p * 150; // day of its greenest
  const grow = Math.max(0, 1 - Math.abs(doy - peak) / 55);
  if (doy > peak + 20 && doy < peak + 75 && p > 0.4) {
    mix(out, o, RIPE, SOIL, Math.min(1, (doy - peak - 20) / 55)); // ripe, then harvested
  } else mix(out, o, SOIL, CROP, grow * (0.6 + 0.4 * green));
  if (cold > 0.5 && p < cold - 0.3) mix(out, o, SOIL, SNOW, 0.85);
  return elev;
}

/** Reflectance of a named band (satellite `common_name`) from a ground spectrum at `o`. */
export function bandOf(common: string, s: Float32Array, o: number): number {
  switch (common) {
    case 'coastal':
    case 'blue':
      return s[o]!;
    case 'green':
      return s[o + 1]!;
    case 'red':
      return s[o + 2]!;
    case 'rededge':
      return (s[o + 2]! + s[o + 3]!) / 2;
    case 'nir':
      return s[o + 3]!;
    case 'swir16':
      return s[o + 4]!;
    case 'swir22':
      return s[o + 5]!;
    case 'pan':
      return (s[o + 1]! + s[o + 2]! + s[o + 3]!) / 3;
    default:
      return s[o + 2]!;
  }
}
