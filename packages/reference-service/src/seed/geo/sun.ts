/**
 * Where the sun is: elevation and azimuth seen from (lon, lat) at an instant, and the
 * Earth-Sun distance, with the low-precision almanac formulas (good to ~0.01° until 2050),
 * which is plenty for plausible `view:sun_*` and `rd:earth_sun_distance` values.
 */
const DEG = Math.PI / 180;
const J2000_MS = Date.UTC(2000, 0, 1, 12);

export interface SunPosition {
  /** Degrees above the horizon. */
  readonly elevation: number;
  /** Degrees clockwise from north. */
  readonly azimuth: number;
  /** Astronomical units. */
  readonly distanceAu: number;
}

export function sunPosition(epochMs: number, lon: number, lat: number): SunPosition {
  const d = (epochMs - J2000_MS) / 86_400_000;
  const g = (357.529 + 0.98560028 * d) * DEG;
  const q = 280.459 + 0.98564736 * d;
  const eclipticLon = (q + 1.915 * Math.sin(g) + 0.02 * Math.sin(2 * g)) * DEG;
  const obliquity = (23.439 - 0.00000036 * d) * DEG;
  const ra = Math.atan2(Math.cos(obliquity) * Math.sin(eclipticLon), Math.cos(eclipticLon));
  const dec = Math.asin(Math.sin(obliquity) * Math.sin(eclipticLon));
  const distanceAu = 1.00014 - 0.01671 * Math.cos(g) - 0.00014 * Math.cos(2 * g);
  const gmst = (280.46061837 + 360.98564736629 * d) * DEG;
  const hourAngle = gmst + lon * DEG - ra;
  const phi = lat * DEG;
  const sinEl = Math.sin(phi) * Math.sin(dec) + Math.cos(phi) * Math.cos(dec) * Math.cos(hourAngle);
  const elevation = Math.asin(Math.max(-1, Math.min(1, sinEl))) / DEG;
  const az = Math.atan2(
    -Math.sin(hourAngle) * Math.cos(dec),
    Math.sin(dec) * Math.cos(phi) - Math.cos(dec) * Math.sin(phi) * Math.cos(hourAngle),
  );
  return { elevation, azimuth: (((az / DEG) % 360) + 360) % 360, distanceAu };
}
