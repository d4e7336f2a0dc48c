/**
 * Plausible raw material for the builders: places on land, satellites, footprints and
 * timestamps in each of the spec's layouts.
 */
import {
  assetDate,
  calendarDateFromInstant,
  isoTimestamp,
  microTimestamp,
  taskDate,
} from '../time/codecs';
import { type Instant, instantFromParts } from '../time/instant';
import type { Rng } from './rng';

// --- places ------------------------------------------------------------------------------------

export interface LandSite {
  readonly name: string;
  /** Centre, WGS84 degrees; at least ~25 km inland, so footprints up to 20 km stay on land. */
  readonly lon: number;
  readonly lat: number;
}

export const LAND_SITES: readonly LandSite[] = [
  { name: 'Central Valley, California', lon: -120.45, lat: 36.75 },
  { name: 'Beauce, France', lon: 1.65, lat: 48.25 },
  { name: 'Punjab, India', lon: 75.6, lat: 30.6 },
  { name: 'Mato Grosso, Brazil', lon: -55.9, lat: -12.6 },
  { name: 'Nile Delta, Egypt', lon: 31.1, lat: 30.6 },
  { name: 'Kansas, USA', lon: -98.6, lat: 38.4 },
  { name: 'Riverina, Australia', lon: 146.2, lat: -34.8 },
  { name: 'Poltava, Ukraine', lon: 34.5, lat: 49.6 },
  { name: 'Nakuru, Kenya', lon: 36.1, lat: -0.3 },
  { name: 'Tokachi, Japan', lon: 143.1, lat: 42.95 },
  { name: 'Pampas, Argentina', lon: -61.5, lat: -34.0 },
  { name: 'Saskatchewan, Canada', lon: -106.6, lat: 52.1 },
  { name: 'Free State, South Africa', lon: 26.8, lat: -28.5 },
  { name: 'Po Valley, Italy', lon: 10.9, lat: 45.1 },
];

/** A polygon with [lon, lat] positions: fits both the response and the request geometry types. */
export interface FootprintPolygon {
  type: 'Polygon';
  coordinates: [number, number][][];
}

export interface Footprint {
  readonly site: LandSite;
  /** A closed, counter-clockwise rectangle, slightly rotated like a satellite strip. */
  readonly polygon: FootprintPolygon;
  /** [min lon, min lat, max lon, max lat] of the polygon. */
  readonly bbox: [number, number, number, number];
  /** [lon, lat] */
  readonly centroid: [number, number];
  readonly areaSqM: number;
  /** EPSG code of the site's UTM zone (326xx north, 327xx south). */
  readonly epsg: number;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** A footprint of `widthKm` x `heightKm` near a land site (random unless `site` is given). */
export function buildFootprint(
  rng: Rng,
  opts: { widthKm?: number; heightKm?: number; site?: LandSite } = {},
): Footprint {
  const site = opts.site ?? rng.pick(LAND_SITES);
  const w = (opts.widthKm ?? rng.float(1, 20, 2)) / 2;
  const h = (opts.heightKm ?? rng.float(1, 20, 2)) / 2;
  const lon0 = site.lon + rng.float(-0.05, 0.05);
  const lat0 = site.lat + rng.float(-0.05, 0.05);
  const theta = (rng.float(-12, 12, 2) * Math.PI) / 180;
  const kmPerDegLat = 110.574;
  const kmPerDegLon = 111.32 * Math.cos((lat0 * Math.PI) / 180);
  const corner = (x: number, y: number): [number, number] => {
    const rx = x * Math.cos(theta) - y * Math.sin(theta);
    const ry = x * Math.sin(theta) + y * Math.cos(theta);
    return [round6(lon0 + rx / kmPerDegLon), round6(lat0 + ry / kmPerDegLat)];
  };
  const ring = [corner(-w, -h), corner(w, -h), corner(w, h), corner(-w, h)];
  ring.push([ring[0]![0], ring[0]![1]]);
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  const zone = Math.floor((lon0 + 180) / 6) + 1;
  return {
    site,
    polygon: { type: 'Polygon', coordinates: [ring] },
    bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
    centroid: [round6(lon0), round6(lat0)],
    areaSqM: Math.round(4 * w * h * 1e6),
    epsg: (lat0 >= 0 ? 32600 : 32700) + zone,
  };
}

// --- satellites --------------------------------------------------------------------------------

export interface SatelliteProfile {
  readonly satelliteId: string;
  readonly collectionId: string;
  readonly constellation: string;
  readonly platform: string;
  readonly instruments: readonly string[];
  /** Ground sample distance, metres. */
  readonly gsd: number;
  /** Orbit altitude, metres. */
  readonly altitude: number;
  readonly provider: string;
  /** Band identifiers by role, as they appear in index expressions. */
  readonly bands: {
    readonly blue: string;
    readonly green: string;
    readonly red: string;
    readonly nir: string;
  };
  /** Centre wavelengths (µm) of blue, green, red, nir. */
  readonly wavelengths: readonly [number, number, number, number];
}

export const SATELLITES: readonly SatelliteProfile[] = [
  {
    satelliteId: 'sentinel-2b',
    collectionId: 'sentinel-2-l2a',
    constellation: 'sentinel-2',
    platform: 'sentinel-2b',
    instruments: ['msi'],
    gsd: 10,
    altitude: 786_000,
    provider: 'esa',
    bands: { blue: 'B02', green: 'B03', red: 'B04', nir: 'B08' },
    wavelengths: [0.49, 0.56, 0.665, 0.842],
  },
  {
    satelliteId: 'pleiades-1a',
    collectionId: 'pleiades-ortho',
    constellation: 'pleiades',
    platform: 'pleiades-1a',
    instruments: ['phr'],
    gsd: 0.5,
    altitude: 694_000,
    provider: 'airbus',
    bands: { blue: 'B0', green: 'B1', red: 'B2', nir: 'B3' },
    wavelengths: [0.49, 0.55, 0.66, 0.85],
  },
  {
    satelliteId: 'spot-7',
    collectionId: 'spot-ortho',
    constellation: 'spot',
    platform: 'spot-7',
    instruments: ['naomi'],
    gsd: 1.5,
    altitude: 694_000,
    provider: 'airbus',
    bands: { blue: 'B0', green: 'B1', red: 'B2', nir: 'B3' },
    wavelengths: [0.485, 0.56, 0.66, 0.825],
  },
  {
    satelliteId: 'superdove-2401',
    collectionId: 'psscene-8b',
    constellation: 'planetscope',
    platform: 'superdove-2401',
    instruments: ['psb.sd'],
    gsd: 3,
    altitude: 475_000,
    provider: 'planet',
    bands: { blue: 'blue', green: 'green', red: 'red', nir: 'nir' },
    wavelengths: [0.49, 0.565, 0.665, 0.865],
  },
];

// --- time --------------------------------------------------------------------------------------

const MICROS_PER_MINUTE = 60_000_000;
const MICROS_PER_DAY = 86_400_000_000;

/** Data lives between 2023-01-01 and 2025-06-30 (UTC). */
const WINDOW_START = instantFromParts({
  year: 2023,
  month: 1,
  day: 1,
  hour: 0,
  minute: 0,
  second: 0,
  micro: 0,
});
const WINDOW_END = instantFromParts({
  year: 2025,
  month: 6,
  day: 30,
  hour: 0,
  minute: 0,
  second: 0,
  micro: 0,
});

/** A random instant in the data window, with random microseconds. */
export function randomInstant(
  rng: Rng,
  from: Instant = WINDOW_START,
  to: Instant = WINDOW_END,
): Instant {
  return from + rng.int(0, Math.floor((to - from) / 1_000_000)) * 1_000_000 + rng.int(0, 999_999);
}

export function addMinutes(instant: Instant, minutes: number): Instant {
  return instant + minutes * MICROS_PER_MINUTE;
}

export function addDays(instant: Instant, days: number): Instant {
  return instant + days * MICROS_PER_DAY;
}

/** `2024-05-17T09:30:00.123Z`: orders, order items, catalog records, deliveries, jobs. */
export const iso = (i: Instant) => isoTimestamp.format(i, { offset: 'Z', fractionDigits: 3 });
/** `2024-05-17T09:30:00Z`: request inputs (RFC 3339). */
export const isoSeconds = (i: Instant) =>
  isoTimestamp.format(i, { offset: 'Z', fractionDigits: 0 });
/** `2024-05-17 09:30:00.123456+00:00`: AOIs, assets, visualizations, indices. */
export const micro = (i: Instant) => microTimestamp.format(i, { fraction: true });
/** `17-05-2024`: task dates. */
export const dmy = (i: Instant) => taskDate.format(calendarDateFromInstant(i));
/** `2024-05-17`: asset dates. */
export const ymd = (i: Instant) => assetDate.format(calendarDateFromInstant(i));

/** created_at / updated_at pair, updated a few minutes to a few days after creation. */
export function timeline(rng: Rng): { created: Instant; updated: Instant } {
  const created = randomInstant(rng);
  return { created, updated: addMinutes(created, rng.int(1, 5 * 24 * 60)) };
}
