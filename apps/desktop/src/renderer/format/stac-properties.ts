/**
 * STAC properties of a catalog record as labelled, readable rows for the detail panel: known
 * keys get a label and a unit, the rest are listed after them as given.
 */
import { crsLabel } from './crs-name';
import {
  formatDegrees,
  formatLocalDateTime,
  formatMeters,
  formatPercent,
  MISSING,
  type TimeFormatOptions,
} from './units';

export interface PropertyRow {
  readonly key: string;
  readonly label: string;
  readonly value: string;
  /** A long text behind the value, shown on demand (a CRS's WKT). */
  readonly detail?: string;
}

type Formatter = (v: unknown, t: TimeFormatOptions) => string;

const asNumber = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const time: Formatter = (v, t) => formatLocalDateTime(typeof v === 'string' ? v : null, t);
const pct: Formatter = (v) => formatPercent(asNumber(v));
const deg: Formatter = (v) => formatDegrees(asNumber(v));
const meters: Formatter = (v) => formatMeters(asNumber(v));

/** Display order and labels of the properties the spec lists (2.10 / 2.11). */
const KNOWN: ReadonlyArray<readonly [key: string, label: string, format: Formatter]> = [
  ['datetime', 'Acquired', time],
  ['start_datetime', 'Acquisition start', time],
  ['end_datetime', 'Acquisition end', time],
  ['eo:cloud_cover', 'Cloud cover', pct],
  ['view:off_nadir', 'Off-nadir angle', deg],
  ['view:satellite_look_angle', 'Satellite look angle', deg],
  ['view:sun_elevation', 'Sun elevation', deg],
  ['view:sun_azimuth', 'Sun azimuth', deg],
  ['gsd', 'Ground sample distance', meters],
  ['platform', 'Platform', plain],
  ['constellation', 'Constellation', plain],
  ['instruments', 'Instruments', plain],
  ['sat:orbit_state', 'Orbit state', plain],
  ['sat:relative_orbit', 'Relative orbit', plain],
  ['proj:epsg', 'Projection', (v) => (typeof v === 'number' ? `EPSG:${v}` : plain(v))],
  [
    'proj:wkt2',
    'Coordinate reference system',
    (v) => (typeof v === 'string' ? (crsLabel(v) ?? 'unnamed (WKT)') : plain(v)),
  ],
  [
    'proj:shape',
    'Raster size (rows × columns)',
    (v) => (Array.isArray(v) ? v.join(' × ') : plain(v)),
  ],
  ['sci:doi', 'DOI', plain],
  ['created', 'Record created', time],
  ['updated', 'Record updated', time],
];
const KNOWN_KEYS = new Set(KNOWN.map(([k]) => k));

function plain(v: unknown): string {
  if (v === null || v === undefined || v === '') return MISSING;
  if (Array.isArray(v))
    return v.every((x) => typeof x !== 'object') ? v.join(', ') : JSON.stringify(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Known properties first (those present), then the others in key order. */
export function propertyRows(
  properties: Readonly<Record<string, unknown>>,
  t: TimeFormatOptions = {},
): PropertyRow[] {
  const rows: PropertyRow[] = [];
  for (const [key, label, format] of KNOWN) {
    const v = properties[key];
    if (v === undefined) continue;
    const detail = key === 'proj:wkt2' && typeof v === 'string' ? { detail: v } : {};
    rows.push({ key, label, value: format(v, t), ...detail });
  }
  for (const key of Object.keys(properties).sort()) {
    if (KNOWN_KEYS.has(key)) continue;
    rows.push({ key, label: key, value: plain(properties[key]) });
  }
  return rows;
}
