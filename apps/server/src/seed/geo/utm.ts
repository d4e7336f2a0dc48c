/**
 * WGS84 -> UTM (Snyder's transverse Mercator series, good to a millimetre within a zone), for
 * the `proj:*` properties of seed scenes: each scene's product grid is the north-up UTM box
 * around its footprint, in the zone of its centre.
 */
const DEG = Math.PI / 180;
const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E4 = E2 * E2;
const E6 = E4 * E2;
const EP2 = E2 / (1 - E2);
const K0 = 0.9996;

export function utmZone(lon: number): number {
  const wrapped = lon - 360 * Math.floor((lon + 180) / 360);
  return Math.min(60, Math.floor((wrapped + 180) / 6) + 1);
}

/** `EPSG:326zz` north of the equator, `EPSG:327zz` south. */
export function utmEpsg(lon: number, lat: number): number {
  return (lat >= 0 ? 32600 : 32700) + utmZone(lon);
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
  const m =
    A *
    ((1 - E2 / 4 - (3 * E4) / 64 - (5 * E6) / 256) * phi -
      ((3 * E2) / 8 + (3 * E4) / 32 + (45 * E6) / 1024) * Math.sin(2 * phi) +
      ((15 * E4) / 256 + (45 * E6) / 1024) * Math.sin(4 * phi) -
      ((35 * E6) / 3072) * Math.sin(6 * phi));
  const x =
    K0 *
      n *
      (a + ((1 - t + c) * a ** 3) / 6 + ((5 - 18 * t + t * t + 72 * c - 58 * EP2) * a ** 5) / 120) +
    500_000;
  const y =
    K0 *
    (m +
      n *
        tan *
        ((a * a) / 2 +
          ((5 - t + 9 * c + 4 * c * c) * a ** 4) / 24 +
          ((61 - 58 * t + t * t + 600 * c - 330 * EP2) * a ** 6) / 720));
  return [x, south ? y + 10_000_000 : y];
}

/** The WKT2 (ISO 19162) definition of a UTM zone on WGS84, as `proj:wkt2` carries it. */
export function utmWkt2(zone: number, south: boolean): string {
  const name = `WGS 84 / UTM zone ${zone}${south ? 'S' : 'N'}`;
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
