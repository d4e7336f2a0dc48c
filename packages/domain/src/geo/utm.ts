/**
 * WGS 84 <-> UTM (Snyder's transverse Mercator series, good to a millimetre within a zone and
 * a few zones beyond): the projected CRS of every scene's product grid (`proj:epsg`, EPSG
 * 326zz north, 327zz south). One source of truth for the service (scene grids, rasters) and
 * the clients (areas to raster windows, pixel positions).
 */
const DEG = Math.PI / 180;
const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E4 = E2 * E2;
const E6 = E4 * E2;
const EP2 = E2 / (1 - E2);
const K0 = 0.9996;
const FALSE_EASTING = 500_000;
const FALSE_NORTHING_SOUTH = 10_000_000;

/** A UTM zone on WGS 84: 1..60, and which hemisphere's false northing. */
export interface UtmZone {
  readonly zone: number;
  readonly south: boolean;
}

export function utmZone(lon: number): number {
  const wrapped = lon - 360 * Math.floor((lon + 180) / 360);
  return Math.min(60, Math.floor((wrapped + 180) / 6) + 1);
}

/** `EPSG:326zz` north of the equator, `EPSG:327zz` south. */
export function utmEpsg(lon: number, lat: number): number {
  return (lat >= 0 ? 32600 : 32700) + utmZone(lon);
}

/** The zone of a WGS 84 / UTM EPSG code (32601..32660, 32701..32760), else null. */
export function utmOfEpsg(epsg: number): UtmZone | null {
  if (!Number.isInteger(epsg)) return null;
  const zone = epsg % 100;
  if (zone < 1 || zone > 60) return null;
  if (epsg - zone === 32600) return { zone, south: false };
  if (epsg - zone === 32700) return { zone, south: true };
  return null;
}

/** The EPSG code of a zone. */
export const epsgOfUtm = (z: UtmZone): number => (z.south ? 32700 : 32600) + z.zone;

/** Meridian arc length from the equator to latitude `phi` (radians), metres. */
function meridianArc(phi: number): number {
  return (
    A *
    ((1 - E2 / 4 - (3 * E4) / 64 - (5 * E6) / 256) * phi -
      ((3 * E2) / 8 + (3 * E4) / 32 + (45 * E6) / 1024) * Math.sin(2 * phi) +
      ((15 * E4) / 256 + (45 * E6) / 1024) * Math.sin(4 * phi) -
      ((35 * E6) / 3072) * Math.sin(6 * phi))
  );
}

/** Easting/northing in metres of (lon, lat) in the given zone (lon may be unwrapped). */
export function toUtm(lon: number, lat: number, zone: number, south: boolean): [number, number] {
  const phi = lat * DEG;
  let dl = lon - (zone * 6 - 183);
  dl -= 360 * Math.round(dl / 360);
  const sin = Math.sin(phi);
  const cos = Math.cos(phi);
  const tan = Math.tan(phi);
  const n = A / Math.sqrt(1 - E2 * sin * sin);
  const t = tan * tan;
  const c = EP2 * cos * cos;
  const a = cos * dl * DEG;
  const m = meridianArc(phi);
  const x =
    K0 *
      n *
      (a + ((1 - t + c) * a ** 3) / 6 + ((5 - 18 * t + t * t + 72 * c - 58 * EP2) * a ** 5) / 120) +
    FALSE_EASTING;
  const y =
    K0 *
    (m +
      n *
        tan *
        ((a * a) / 2 +
          ((5 - t + 9 * c + 4 * c * c) * a ** 4) / 24 +
          ((61 - 58 * t + t * t + 600 * c - 330 * EP2) * a ** 6) / 720));
  return [x, south ? y + FALSE_NORTHING_SOUTH : y];
}

const E1 = (1 - Math.sqrt(1 - E2)) / (1 + Math.sqrt(1 - E2));
const MU_DIVISOR = A * (1 - E2 / 4 - (3 * E4) / 64 - (5 * E6) / 256);

/** Longitude/latitude (degrees) of an easting/northing in the given zone: the inverse of `toUtm`. */
export function fromUtm(x: number, y: number, zone: number, south: boolean): [number, number] {
  const m = (south ? y - FALSE_NORTHING_SOUTH : y) / K0;
  const mu = m / MU_DIVISOR;
  const phi1 =
    mu +
    ((3 * E1) / 2 - (27 * E1 ** 3) / 32) * Math.sin(2 * mu) +
    ((21 * E1 * E1) / 16 - (55 * E1 ** 4) / 32) * Math.sin(4 * mu) +
    ((151 * E1 ** 3) / 96) * Math.sin(6 * mu) +
    ((1097 * E1 ** 4) / 512) * Math.sin(8 * mu);
  const sin = Math.sin(phi1);
  const cos = Math.cos(phi1);
  const tan = Math.tan(phi1);
  const c1 = EP2 * cos * cos;
  const t1 = tan * tan;
  const n1 = A / Math.sqrt(1 - E2 * sin * sin);
  const r1 = (A * (1 - E2)) / Math.pow(1 - E2 * sin * sin, 1.5);
  const d = (x - FALSE_EASTING) / (n1 * K0);
  const lat =
    phi1 -
    ((n1 * tan) / r1) *
      ((d * d) / 2 -
        ((5 + 3 * t1 + 10 * c1 - 4 * c1 * c1 - 9 * EP2) * d ** 4) / 24 +
        ((61 + 90 * t1 + 298 * c1 + 45 * t1 * t1 - 252 * EP2 - 3 * c1 * c1) * d ** 6) / 720);
  const lon =
    (d -
      ((1 + 2 * t1 + c1) * d ** 3) / 6 +
      ((5 - 2 * c1 + 28 * t1 - 3 * c1 * c1 + 8 * EP2 + 24 * t1 * t1) * d ** 5) / 120) /
    cos;
  return [zone * 6 - 183 + lon / DEG, lat / DEG];
}

/** The name of a zone's CRS, as EPSG spells it: `WGS 84 / UTM zone 33N`. */
export const utmCrsName = (zone: number, south: boolean): string =>
  `WGS 84 / UTM zone ${zone}${south ? 'S' : 'N'}`;

/** The WKT2 (ISO 19162) definition of a UTM zone on WGS84, as `proj:wkt2` carries it. */
export function utmWkt2(zone: number, south: boolean): string {
  const name = utmCrsName(zone, south);
  return (
    `PROJCRS["${name}",BASEGEOGCRS["WGS 84",DATUM["World Geodetic System 1984",` +
    `ELLIPSOID["WGS 84",6378137,298.257223563,LENGTHUNIT["metre",1]]],` +
    `PRIMEM["Greenwich",0,ANGLEUNIT["degree",0.0174532925199433]]],` +
    `CONVERSION["UTM zone ${zone}${south ? 'S' : 'N'}",METHOD["Transverse Mercator",ID["EPSG",9807]],` +
    `PARAMETER["Latitude of natural origin",0,ANGLEUNIT["degree",0.0174532925199433]],` +
    `PARAMETER["Longitude of natural origin",${zone * 6 - 183},ANGLEUNIT["degree",0.0174532925199433]],` +
    `PARAMETER["Scale factor at natural origin",0.9996,SCALEUNIT["unity",1]],` +
    `PARAMETER["False easting",500000,LENGTHUNIT["metre",1]],` +
    `PARAMETER["False northing",${south ? 10000000 : 0},LENGTHUNIT["metre",1]]],` +
    `CS[Cartesian,2],AXIS["easting (E)",east,ORDER[1],LENGTHUNIT["metre",1]],` +
    `AXIS["northing (N)",north,ORDER[2],LENGTHUNIT["metre",1]],` +
    `ID["EPSG",${(south ? 32700 : 32600) + zone}]]`
  );
}
