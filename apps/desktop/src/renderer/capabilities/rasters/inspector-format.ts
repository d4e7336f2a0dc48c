/**
 * What the pixel inspector writes: a position in decimal degrees and in degrees, minutes and
 * seconds (what a GPS or a paper map reads), the pixel's centre in the raster's UTM CRS, band
 * values as stored and as reflectance, and an index value.
 */
import { utmOfEpsg } from '@eo/domain';
import type { GridLevel } from './raster-grid';

/** 46° 31' 12.3" N, 6° 37' 55.1" E */
export function formatDms(lat: number, lon: number): string {
  const part = (v: number, pos: string, neg: string) => {
    const a = Math.abs(v);
    let d = Math.floor(a);
    let m = Math.floor((a - d) * 60);
    let s = Math.round(((a - d) * 60 - m) * 600) / 10;
    if (s >= 60) [s, m] = [0, m + 1];
    if (m >= 60) [m, d] = [0, d + 1];
    return `${d}° ${String(m).padStart(2, '0')}′ ${s.toFixed(1).padStart(4, '0')}″ ${v < 0 ? neg : pos}`;
  };
  return `${part(lat, 'N', 'S')}, ${part(lon, 'E', 'W')}`;
}

/** The centre of pixel (col, row) of a level in its CRS, and the CRS in words ("UTM 32N"). */
export function pixelCentre(
  epsg: number,
  level: GridLevel,
  col: number,
  row: number,
): { x: number; y: number; crs: string } {
  const gt = level.geoTransform;
  const [u, v] = [col + 0.5, row + 0.5];
  const zone = utmOfEpsg(epsg);
  return {
    x: gt[0] + u * gt[1] + v * gt[2],
    y: gt[3] + u * gt[4] + v * gt[5],
    crs: zone ? `UTM ${zone.zone}${zone.south ? 'S' : 'N'} (EPSG:${epsg})` : `EPSG:${epsg}`,
  };
}

/** An index value for people: 3 decimals, "undefined" where the expression is (x/0, nodata). */
export function formatIndexValue(v: number): string {
  return Number.isFinite(v) ? v.toFixed(3) : 'undefined';
}
