/**
 * CSV (papaparse: quoting, a BOM, `,` `;` or tab found by itself): a row is a feature. Its
 * geometry comes from a WKT column (wkt, geometry, geom, the_geom, WKT, ...) or from longitude
 * and latitude columns (lon/lng/long/longitude/x and lat/latitude/y); the other columns are
 * its attributes, as text. A row whose geometry cannot be read has none (the preview says why).
 */
import Papa from 'papaparse';
import type { Geometry } from '@eo/domain';
import { readWkt } from '../geometry/wkt-read';
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';
import type { Scalar } from '../write/feature';
import { makeCounter } from './counter';
import { utf8, type Reader } from './reader';

const WKT_NAMES = ['wkt', 'geometry', 'geom', 'the_geom', 'shape', 'footprint'];
const LON_NAMES = ['lon', 'lng', 'long', 'longitude', 'x'];
const LAT_NAMES = ['lat', 'latitude', 'y'];

const pick = (headers: readonly string[], names: readonly string[]) =>
  headers.find((h) => names.includes(h.trim().toLowerCase()));

/** The columns a CSV's geometry comes from, by its header (refused when it has none). */
export function csvColumns(headers: readonly string[]) {
  const wkt = pick(headers, WKT_NAMES);
  const lon = pick(headers, LON_NAMES);
  const lat = pick(headers, LAT_NAMES);
  if (!wkt && !(lon && lat))
    throw new Error(
      `no geometry column: expected a WKT column (${WKT_NAMES.join(', ')}) or longitude and latitude columns`,
    );
  return { headers, wkt, lon, lat };
}

/** Row to feature, counting against the limits (the same for bytes and a streamed file). */
export function makeCsvRowReader(columns: ReturnType<typeof csvColumns>, limits: ImportLimits) {
  const { headers, wkt, lon, lat } = columns;
  const count = makeCounter(limits);
  return (row: Record<string, string>): RawFeature => {
    let geometry: Geometry | null = null;
    let unreadable: string | undefined;
    try {
      if (wkt) geometry = row[wkt]?.trim() ? readWkt(row[wkt]!) : null;
      else geometry = { type: 'Point', coordinates: [num(row[lon!]), num(row[lat!])] };
    } catch (e) {
      unreadable = (e as Error).message;
    }
    count(geometry);
    const properties: Record<string, Scalar> = {};
    for (const h of headers)
      if (h !== wkt && h !== lon && h !== lat) properties[h] = row[h] ?? null;
    return unreadable === undefined
      ? { geometry, properties }
      : { geometry, properties, unreadable };
  };
}

export const readCsv: Reader = (bytes, limits) => {
  const parsed = Papa.parse<Record<string, string>>(utf8(bytes).replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
  });
  const read = makeCsvRowReader(csvColumns(parsed.meta.fields ?? []), limits);
  return { features: parsed.data.map(read), sourceCrs: null };
};

function num(v: string | undefined): number {
  const n = v === undefined || v.trim() === '' ? NaN : Number(v.trim().replace(',', '.'));
  if (!Number.isFinite(n)) throw new Error(`${JSON.stringify(v ?? '')} is not a coordinate`);
  return n;
}
