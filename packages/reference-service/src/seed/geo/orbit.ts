/**
 * A circular sun-synchronous orbit and its ground track, the model behind the seed scenes.
 *
 * - Period from Kepler's third law at the satellite's altitude, then nudged so that a whole
 *   number of orbits fits a 16-day repeat cycle (so `sat:relative_orbit` is meaningful).
 * - Inclination from the sun-synchronous condition (J2 precession = 360° per year):
 *   cos i = -(a / 12352 km)^3.5, about 97.4° at 500 km.
 * - The orbital plane turns with the sun, so every descending node is crossed at the same
 *   local solar time (10:30 by default): the node's longitude follows from the UTC time of the
 *   crossing, and each orbit's track lies ~24° west of the previous one.
 * - Ground track in the frame that turns with the sun: argument of latitude u (π at the
 *   descending node), latitude asin(sin i sin u), longitude from the node by
 *   atan2(cos i sin u, cos u) minus the Earth's rotation relative to the sun.
 */
const DEG = Math.PI / 180;
const MU_KM3_S2 = 398_600.4418;
const EARTH_RADIUS_KM = 6_371.0088;
const EQUATORIAL_RADIUS_KM = 6_378.137;
const SOLAR_DAY_S = 86_400;
const REPEAT_CYCLE_DAYS = 16;

export interface OrbitModel {
  readonly altitudeKm: number;
  readonly periodS: number;
  readonly orbitsPerCycle: number;
  readonly inclinationDeg: number;
  /** Local mean solar time of the descending node, hours. */
  readonly descendingNodeHour: number;
  /** Instant (epoch ms) of the descending node crossing of absolute orbit 0. */
  readonly epochMs: number;
  /** Ground speed of the sub-satellite point, km/s. */
  readonly groundSpeedKmS: number;
}

export function orbitModel(opts: {
  altitudeKm: number;
  epochMs: number;
  descendingNodeHour?: number;
}): OrbitModel {
  const a = EQUATORIAL_RADIUS_KM + opts.altitudeKm;
  const kepler = 2 * Math.PI * Math.sqrt((a * a * a) / MU_KM3_S2);
  const orbitsPerCycle = Math.round((REPEAT_CYCLE_DAYS * SOLAR_DAY_S) / kepler);
  const periodS = (REPEAT_CYCLE_DAYS * SOLAR_DAY_S) / orbitsPerCycle;
  const inclinationDeg = Math.acos(-Math.pow(a / 12_352, 3.5)) / DEG;
  return {
    altitudeKm: opts.altitudeKm,
    periodS,
    orbitsPerCycle,
    inclinationDeg,
    descendingNodeHour: opts.descendingNodeHour ?? 10.5,
    epochMs: opts.epochMs,
    groundSpeedKmS: (2 * Math.PI * EARTH_RADIUS_KM) / periodS,
  };
}

/** When absolute orbit `k` crosses its descending node (epoch ms). */
export function descendingNodeMs(m: OrbitModel, k: number): number {
  return m.epochMs + k * m.periodS * 1000;
}

/** Relative orbit (1-based) within the repeat cycle. */
export function relativeOrbit(m: OrbitModel, k: number): number {
  return (((k % m.orbitsPerCycle) + m.orbitsPerCycle) % m.orbitsPerCycle) + 1;
}

export interface LonLat {
  lon: number;
  lat: number;
}

const wrapPi = (x: number) => x - 2 * Math.PI * Math.floor((x + Math.PI) / (2 * Math.PI));
export const wrapLon = (lon: number) => lon - 360 * Math.floor((lon + 180) / 360);

/** Sub-satellite point `tauS` seconds after orbit `k` crossed its descending node. */
export function trackPoint(m: OrbitModel, k: number, tauS: number): LonLat {
  const nodeMs = descendingNodeMs(m, k);
  const utcHours = (((nodeMs / 3_600_000) % 24) + 24) % 24;
  const nodeLon = 15 * (m.descendingNodeHour - utcHours);
  const i = m.inclinationDeg * DEG;
  const u = Math.PI + (2 * Math.PI * tauS) / m.periodS;
  const lat = Math.asin(Math.sin(i) * Math.sin(u)) / DEG;
  const alongNode = wrapPi(Math.atan2(Math.cos(i) * Math.sin(u), Math.cos(u)) - Math.PI);
  const earthTurn = (2 * Math.PI * tauS) / SOLAR_DAY_S;
  return { lon: wrapLon(nodeLon + (alongNode - earthTurn) / DEG), lat };
}

/** Initial bearing from a to b, degrees clockwise from north. */
export function bearing(a: LonLat, b: LonLat): number {
  const p1 = a.lat * DEG;
  const p2 = b.lat * DEG;
  const dl = (b.lon - a.lon) * DEG;
  const y = Math.sin(dl) * Math.cos(p2);
  const x = Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl);
  return (((Math.atan2(y, x) / DEG) % 360) + 360) % 360;
}

/** The point `km` away from `from` along `bearingDeg` on the sphere (longitude not wrapped). */
export function destination(from: LonLat, bearingDeg: number, km: number): LonLat {
  const d = km / EARTH_RADIUS_KM;
  const b = bearingDeg * DEG;
  const p1 = from.lat * DEG;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const l = Math.atan2(
    Math.sin(b) * Math.sin(d) * Math.cos(p1),
    Math.cos(d) - Math.sin(p1) * Math.sin(p2),
  );
  return { lon: from.lon + l / DEG, lat: p2 / DEG };
}

/** Ground track heading at `tauS` (degrees clockwise from north). */
export function trackHeading(m: OrbitModel, k: number, tauS: number): number {
  return bearing(trackPoint(m, k, tauS - 0.5), trackPoint(m, k, tauS + 0.5));
}
