/**
 * Deterministic archive scenes: the same options give the same scenes, byte for byte, on every
 * machine (seeded PRNG, no clock, no `Math.random`), and the first N scenes of a larger run are
 * the N scenes of a smaller one.
 *
 * The model (packages/reference-service/docs/choices-catalog.md has the long version):
 * - each satellite of `reference/catalog.ts` flies a sun-synchronous orbit (`geo/orbit.ts`) at
 *   its altitude, descending node at 10:30 local solar time, so consecutive orbits step ~24°
 *   westward; scenes are taken on the daylit descending half only;
 * - a pass is cut into frames as long as the swath is wide (`swathKm`); a scene is one frame;
 * - the generator draws acquisitions as strips: a satellite, an orbit in the time window, a
 *   start frame and a strip length (1 to 10 frames), with one pointing (off-nadir angle and
 *   side) per strip; a frame becomes a scene only if its centre is on land (`geo/land-mask.ts`),
 *   the sun is at least 10° above the horizon there, and it was not taken already;
 * - off-nadir pointing shifts the footprint across track (altitude x tan angle), widens it
 *   (1 / cos²) and coarsens the gsd (1 / cos^1.5);
 * - cloud cover: a per-strip draw (45% clear, 30% partly, 25% cloudy; cloudier in the tropics)
 *   plus per-frame noise; sun elevation/azimuth and Earth-Sun distance from the almanac.
 */
import { toUtm, utmEpsg, utmZone, type ArchiveFeature } from '@eo/domain';
import type { z } from 'zod';
import {
  ARCHIVE_STAC_EXTENSIONS,
  STAC_VERSION,
  constantProperties,
  sceneAssets,
} from '../archive/feature';
import { SATELLITES, collectionById, type Satellite } from '../reference/catalog';
import { footprint, rectangleCorners } from './geo/footprint';
import { isLand } from './geo/land-mask';
import {
  destination,
  descendingNodeMs,
  orbitModel,
  relativeOrbit,
  trackHeading,
  trackPoint,
  wrapLon,
  type OrbitModel,
} from './geo/orbit';
import { sunPosition } from './geo/sun';
import { createRng, type Rng } from './prng';

export type ArchiveFeatureIn = z.input<typeof ArchiveFeature>;

export interface SceneGeneratorOptions {
  /** How many scenes. */
  readonly count: number;
  /** PRNG seed (default 20240517). */
  readonly seed?: number;
  /**
   * Acquisition window, epoch ms (default `windowFor(count)`: 2023-06-01T00:00Z ..
   * 2025-06-01T00:00Z up to 4,000,000 scenes, reaching further back for more).
   */
  readonly startMs?: number;
  readonly endMs?: number;
  /**
   * Include `assets` (default true). Without them the archive derives the same assets on read
   * (`archive/feature.ts`), which is what bulk seeding uses.
   */
  readonly assets?: boolean;
}

export interface GeneratedScene {
  readonly satelliteId: string;
  /** The STAC feature of spec 2.11, without links (built on read). */
  readonly feature: ArchiveFeatureIn;
}

export const DEFAULT_SCENE_SEED = 20240517;
export const DEFAULT_WINDOW = {
  startMs: Date.UTC(2023, 5, 1),
  endMs: Date.UTC(2025, 5, 1),
} as const;
/**
 * Absolute orbit 0 of every satellite is counted from here (plus a per-satellite phase), or
 * from 1 January of the year before the window's start when the window starts earlier, so
 * absolute orbit numbers stay positive (windows from 2022 on keep this epoch and their scenes).
 */
const ORBIT_EPOCH_MS = Date.UTC(2021, 0, 1);

function orbitEpochFor(startMs: number): number {
  const yearBefore = Date.UTC(new Date(startMs).getUTCFullYear() - 1, 0, 1);
  return Math.min(ORBIT_EPOCH_MS, yearBefore);
}

/**
 * Scenes a year of window takes while draws still land on free slots: rejection sampling slows
 * as the window fills (in the default two years, placing scenes past ~8 million crawled below
 * 200 a second), so windows are sized to hold at most 2,000,000 a year.
 */
const SCENES_PER_YEAR = 2_000_000;

/**
 * The acquisition window for `count` scenes: the default two years while they fit 2,000,000 a
 * year (so every count up to 4,000,000 gives the same scenes as before), else as many whole
 * years back from the default's end as hold 2,000,000 a year.
 */
export function windowFor(count: number): { startMs: number; endMs: number } {
  const years = Math.ceil(count / SCENES_PER_YEAR);
  if (years <= 2) return { ...DEFAULT_WINDOW };
  const end = new Date(DEFAULT_WINDOW.endMs);
  return {
    startMs: Date.UTC(end.getUTCFullYear() - years, end.getUTCMonth(), 1),
    endMs: DEFAULT_WINDOW.endMs,
  };
}
const MIN_SUN_ELEVATION = 10;

interface Flyer {
  readonly sat: Satellite;
  readonly idPrefix: string;
  readonly productLevel: string;
  readonly orbit: OrbitModel;
  readonly framesPerPass: number;
  readonly frameS: number;
  /** Largest off-nadir angle, degrees (agile very-high-resolution satellites point further). */
  readonly maxOffNadir: number;
  readonly weight: number;
  readonly constants: ReturnType<typeof constantProperties>;
}

function flyers(epochMs: number): Flyer[] {
  return SATELLITES.map((sat, i) => {
    const base = orbitModel({ altitudeKm: sat.altitudeKm, epochMs });
    // Satellites of one constellation share the plane half an orbit apart; others get their own phase.
    const sameConstellationBefore = SATELLITES.slice(0, i).filter(
      (s) => s.constellation === sat.constellation,
    ).length;
    const phaseS = sameConstellationBefore * (base.periodS / 2) + i * 613;
    const orbit = orbitModel({
      altitudeKm: sat.altitudeKm,
      epochMs: epochMs + phaseS * 1000,
    });
    const passKm = orbit.groundSpeedKmS * (orbit.periodS / 2);
    const framesPerPass = Math.floor(passKm / sat.swathKm);
    const digits = /\d+$/.exec(sat.name)?.[0] ?? String(i + 1);
    return {
      sat,
      idPrefix: `${sat.name
        .replace(/[^A-Za-z]/g, '')
        .slice(0, 3)
        .toUpperCase()}${digits}`,
      productLevel: collectionById(sat.collectionId)?.productLevel ?? 'L1C',
      orbit,
      framesPerPass,
      frameS: orbit.periodS / 2 / framesPerPass,
      maxOffNadir: sat.gsd < 1 ? 30 : 12,
      weight: sat.gsd < 1 ? 0.3 : 0.35,
      constants: constantProperties(sat.collectionId, sat.id),
    };
  });
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** `20240517T093012` from an instant. */
function compactStamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

function stripCloudBase(rng: Rng, lat: number): number {
  const r = rng.next();
  let base = r < 0.45 ? rng.uniform(0, 8) : r < 0.75 ? rng.uniform(8, 35) : rng.uniform(35, 95);
  if (Math.abs(lat) < 20) base += rng.uniform(0, 15);
  return base;
}

interface Strip {
  readonly flyer: Flyer;
  readonly orbitNumber: number;
  readonly offNadir: number;
  /** +1 right of track, -1 left. */
  readonly side: number;
  cloudBase: number;
  readonly rng: Rng;
}

function sceneAt(strip: Strip, frame: number, withAssets: boolean): GeneratedScene | undefined {
  const { flyer, orbitNumber, rng } = strip;
  const { sat, orbit } = flyer;
  const tau = -orbit.periodS / 4 + (frame + 0.5) * flyer.frameS;
  const nadir = trackPoint(orbit, orbitNumber, tau);
  const heading = trackHeading(orbit, orbitNumber, tau);
  const offNadirRad = (strip.offNadir * Math.PI) / 180;
  const shiftKm = sat.altitudeKm * Math.tan(offNadirRad);
  const shifted = destination(nadir, heading + 90 * strip.side, shiftKm);
  const centre = { lon: wrapLon(shifted.lon), lat: shifted.lat };
  if (!isLand(centre.lon, centre.lat)) return undefined;
  const centreMs = Math.round(descendingNodeMs(orbit, orbitNumber) + tau * 1000);
  const sun = sunPosition(centreMs, centre.lon, centre.lat);
  if (sun.elevation < MIN_SUN_ELEVATION) return undefined;

  const cos = Math.cos(offNadirRad);
  const widthKm = sat.swathKm / (cos * cos);
  const corners = rectangleCorners(centre, heading, sat.swathKm, widthKm);
  const fp = footprint(corners);
  const datetime = new Date(centreMs).toISOString();
  const startMs = Math.round(centreMs - (flyer.frameS * 1000) / 2);
  const id = `${flyer.idPrefix}_${compactStamp(centreMs)}_${flyer.productLevel}_R${String(relativeOrbit(orbit, orbitNumber)).padStart(3, '0')}_F${String(frame).padStart(4, '0')}`;

  // Product grid: the north-up UTM box around the footprint at the nominal gsd.
  const zone = utmZone(centre.lon);
  const south = centre.lat < 0;
  const xy = corners.map((p) => toUtm(p.lon, p.lat, zone, south));
  const px = sat.gsd;
  const minX = Math.floor(Math.min(...xy.map((p) => p[0])) / px) * px;
  const maxX = Math.ceil(Math.max(...xy.map((p) => p[0])) / px) * px;
  const minY = Math.floor(Math.min(...xy.map((p) => p[1])) / px) * px;
  const maxY = Math.ceil(Math.max(...xy.map((p) => p[1])) / px) * px;

  strip.cloudBase = clamp(strip.cloudBase + rng.normal() * 6, 0, 100);
  const cloud = clamp(strip.cloudBase + rng.normal() * 4, 0, 100);
  const processingMs = Math.round(rng.uniform(2, 30) * 3_600_000);
  const created = new Date(centreMs + processingMs).toISOString();

  const feature: ArchiveFeatureIn = {
    type: 'Feature',
    stac_version: STAC_VERSION,
    stac_extensions: ARCHIVE_STAC_EXTENSIONS,
    id,
    collection: sat.collectionId,
    bbox: fp.bbox,
    geometry: fp.geometry,
    properties: {
      title: id,
      datetime,
      startdatetime: new Date(startMs).toISOString(),
      created,
      updated: created,
      ...flyer.constants,
      altitude: Math.round(sat.altitudeKm * 1000 + rng.normal() * 300),
      'eo:cloud_cover': r2(cloud),
      gsd: r2(sat.gsd / Math.pow(cos, 1.5)),
      'rd:anomalous_pixels': r4(Math.abs(rng.normal()) * 0.05),
      'rd:earth_sun_distance': r6(sun.distanceAu),
      'view:off_nadir': r2(strip.offNadir),
      'view:scene_center_lat': r6(centre.lat),
      'view:scene_center_lon': r6(centre.lon),
      'view:sun_azimuth': r2(sun.azimuth),
      'view:sun_elevation': r2(sun.elevation),
      'sat:absolute_orbit': orbitNumber,
      'sat:relative_orbit': relativeOrbit(orbit, orbitNumber),
      'proj:code': `EPSG:${utmEpsg(centre.lon, centre.lat)}`,
      'proj:shape': [Math.round((maxY - minY) / px), Math.round((maxX - minX) / px)],
      'proj:transform': [px, 0, minX, 0, -px, maxY],
    },
    ...(withAssets ? { assets: sceneAssets(sat.collectionId, sat.id, id, datetime) } : {}),
  };
  return { satelliteId: sat.id, feature };
}

/** Key of a (satellite, orbit, frame) slot, so no frame is taken twice. */
const slotKey = (satIndex: number, orbitNumber: number, frame: number) =>
  (satIndex * 1_000_000 + orbitNumber) * 4096 + frame;

/**
 * Yields `count` scenes, lazily. Throws if the window cannot hold them (a window given by the
 * caller; the default one is sized to the count).
 */
export function* generateScenes(opts: SceneGeneratorOptions): Generator<GeneratedScene> {
  const rng = createRng(opts.seed ?? DEFAULT_SCENE_SEED);
  const sized = windowFor(opts.count);
  const startMs = opts.startMs ?? sized.startMs;
  const endMs = opts.endMs ?? sized.endMs;
  const all = flyers(orbitEpochFor(startMs));
  const weights = all.map((f) => f.weight);
  const taken = new Set<number>();
  let produced = 0;
  let strips = 0;
  const maxStrips = 100 * opts.count + 10_000;
  while (produced < opts.count) {
    if (++strips > maxStrips) {
      throw new Error(
        `could not place ${opts.count} scenes in the window (placed ${produced}); widen the window`,
      );
    }
    const satIndex = rng.weighted(weights);
    const flyer = all[satIndex]!;
    const { orbit } = flyer;
    // Orbits whose daylit descending half lies in the window.
    const firstOrbit = Math.ceil((startMs - orbit.epochMs) / 1000 / orbit.periodS + 0.25);
    const lastOrbit = Math.floor((endMs - orbit.epochMs) / 1000 / orbit.periodS - 0.25);
    const orbitNumber = firstOrbit + rng.int(lastOrbit - firstOrbit + 1);
    const startFrame = rng.int(flyer.framesPerPass);
    const length = 1 + Math.min(9, Math.floor(-Math.log(1 - rng.next()) * 3));
    const u = rng.next();
    const offNadir = flyer.maxOffNadir * (flyer.sat.gsd < 1 ? Math.pow(u, 1.5) : u * u);
    const strip: Strip = {
      flyer,
      orbitNumber,
      offNadir,
      side: rng.next() < 0.5 ? -1 : 1,
      cloudBase: 0,
      // Each strip draws from its own stream, so rejected frames do not shift later strips.
      rng: createRng(rng.int(2 ** 32)),
    };
    const startLat = trackPoint(
      orbit,
      orbitNumber,
      -orbit.periodS / 4 + startFrame * flyer.frameS,
    ).lat;
    strip.cloudBase = stripCloudBase(strip.rng, startLat);
    for (let f = startFrame; f < startFrame + length && f < flyer.framesPerPass; f++) {
      const key = slotKey(satIndex, orbitNumber, f);
      if (taken.has(key)) continue;
      const scene = sceneAt(strip, f, opts.assets ?? true);
      if (!scene) continue;
      taken.add(key);
      yield scene;
      if (++produced >= opts.count) return;
    }
  }
}
