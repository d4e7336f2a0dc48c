/**
 * The catalog browser's filter form and how it becomes a catalog search request. The form holds
 * what the user typed (strings for the number fields, UTC calendar days for dates: the one
 * time-zone rule of the catalog, said beside the pickers); `buildQuery`
 * turns it into the domain's request and returns a message per field that is wrong, so the form
 * shows "Cloud cover is a percentage from 0 to 100" next to the field instead of a search error.
 */
import {
  CatalogSearchRequest,
  type CatalogSearchRequestInput,
  type Geometry,
  type Polygon,
} from '@eo/domain';
import { utcDayToIso } from '../format/units';

/** [west, south, east, north] in degrees. */
export type LonLatBox = [number, number, number, number];

export type AreaFilter =
  | { readonly kind: 'none' }
  | { readonly kind: 'view'; readonly bbox: LonLatBox }
  | { readonly kind: 'polygon'; readonly geometry: Polygon };

export const SORTS = {
  'datetime-desc': { label: 'Newest first', field: 'datetime', direction: 'desc' },
  'datetime-asc': { label: 'Oldest first', field: 'datetime', direction: 'asc' },
  'cloud-asc': { label: 'Least cloud first', field: 'eo:cloud_cover', direction: 'asc' },
  'offnadir-asc': { label: 'Most nadir first', field: 'view:off_nadir', direction: 'asc' },
} as const;
export type SortKey = keyof typeof SORTS;

export interface CatalogFilters {
  /** `YYYY-MM-DD` (an `<input type="date">` value) or '' for open. */
  dateFrom: string;
  dateTo: string;
  /** Maximum cloud cover in %, as typed ('' for any; a number once a number input holds one). */
  cloudMax: string | number;
  /** Maximum off-nadir angle in degrees, as typed; '' for any. */
  offNadirMax: string | number;
  /** Coarsest ground sample distance in metres (`gsd`), as typed; '' for any. */
  gsdMax: string | number;
  /** Lowest sun elevation in degrees (`view:sun_elevation`), as typed; '' for any. */
  sunElevationMin: string | number;
  /** Platforms (`platform`, e.g. "sentinel-2b"); empty for all. */
  platforms: string[];
  collections: string[];
  area: AreaFilter;
  sort: SortKey;
}

export type FilterField =
  | 'dateFrom'
  | 'dateTo'
  | 'cloudMax'
  | 'offNadirMax'
  | 'gsdMax'
  | 'sunElevationMin'
  | 'area'
  | 'form';

export type BuiltQuery =
  | { readonly ok: true; readonly query: CatalogSearchRequestInput }
  | { readonly ok: false; readonly errors: Partial<Record<FilterField, string>> };

export function emptyFilters(): CatalogFilters {
  return {
    dateFrom: '',
    dateTo: '',
    cloudMax: '',
    offNadirMax: '',
    gsdMax: '',
    sunElevationMin: '',
    platforms: [],
    collections: [],
    area: { kind: 'none' },
    sort: 'datetime-desc',
  };
}

function parseBound(
  raw: string | number,
  max: number,
  message: string,
): { ok: true; value: number | null } | { ok: false; message: string } {
  // v-model on <input type="number"> hands over a number once the field holds one.
  const s = String(raw).trim();
  if (s === '') return { ok: true, value: null };
  const v = Number(s);
  if (!Number.isFinite(v) || v < 0 || v > max) return { ok: false, message };
  return { ok: true, value: v };
}

/** The map view as a search box: clamped to the world, null when the view shows all of it. */
export function viewToBbox(
  west: number,
  south: number,
  east: number,
  north: number,
): LonLatBox | null {
  if (east - west >= 360) return null;
  const clampLon = (v: number) => Math.max(-180, Math.min(180, v));
  const clampLat = (v: number) => Math.max(-90, Math.min(90, v));
  let w = west;
  let e = east;
  // A view panned onto a world copy: bring it back to -180..180 when it fits there.
  const shift = Math.floor((w + 180) / 360) * 360;
  w -= shift;
  e -= shift;
  if (e > 180) {
    // Straddles the antimeridian: widen to the whole longitude range rather than miss scenes.
    w = -180;
    e = 180;
  }
  return [clampLon(w), clampLat(south), clampLon(e), clampLat(north)];
}

export function buildQuery(
  f: CatalogFilters,
  page?: { limit: number; offset: number },
): BuiltQuery {
  const errors: Partial<Record<FilterField, string>> = {};
  const from = f.dateFrom ? utcDayToIso(f.dateFrom, 'start') : null;
  const to = f.dateTo ? utcDayToIso(f.dateTo, 'end') : null;
  if (f.dateFrom && !from) errors.dateFrom = 'Enter a valid start date.';
  if (f.dateTo && !to) errors.dateTo = 'Enter a valid end date.';
  if (from && to && from > to) errors.dateTo = 'The end date is before the start date.';
  const cloud = parseBound(f.cloudMax, 100, 'Cloud cover is a percentage from 0 to 100.');
  if (!cloud.ok) errors.cloudMax = cloud.message;
  const nadir = parseBound(f.offNadirMax, 90, 'Off-nadir is an angle from 0 to 90 degrees.');
  if (!nadir.ok) errors.offNadirMax = nadir.message;
  const gsd = parseBound(f.gsdMax, 10_000, 'Resolution is a distance in metres from 0 to 10,000.');
  if (!gsd.ok) errors.gsdMax = gsd.message;
  const sun = parseBound(f.sunElevationMin, 90, 'Sun elevation is an angle from 0 to 90 degrees.');
  if (!sun.ok) errors.sunElevationMin = sun.message;
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const query: CatalogSearchRequestInput = {};
  if (from || to) query.datetime = `${from ?? '..'}/${to ?? '..'}`;
  const props: NonNullable<CatalogSearchRequestInput['query']> = {};
  if (cloud.ok && cloud.value !== null) props['eo:cloud_cover'] = { lte: cloud.value };
  if (nadir.ok && nadir.value !== null) props['view:off_nadir'] = { lte: nadir.value };
  // The records' own properties, through the spec's `query` (the same semantics online and in
  // the mirror: @eo/domain's search/evaluate.ts and the shared catalog SQL).
  if (gsd.ok && gsd.value !== null) props.gsd = { lte: gsd.value };
  if (sun.ok && sun.value !== null) props['view:sun_elevation'] = { gte: sun.value };
  if (f.platforms.length > 0) props.platform = { eq: [...f.platforms] };
  if (Object.keys(props).length > 0) query.query = props;
  if (f.collections.length > 0) query.collections = [...f.collections];
  if (f.area.kind === 'view') query.bbox = [...f.area.bbox];
  if (f.area.kind === 'polygon') query.intersects = f.area.geometry;
  const sort = SORTS[f.sort];
  query.sort_by = [{ field: sort.field, direction: sort.direction }];
  if (page) {
    query.limit = page.limit;
    query.offset = page.offset;
  }

  // The same schema the service and the mirror use: anything it rejects is our bug or a bad
  // polygon, shown on the form rather than sent.
  const checked = CatalogSearchRequest.safeParse(query);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field: FilterField = issue?.path[0] === 'intersects' ? 'area' : 'form';
    return { ok: false, errors: { [field]: issue?.message ?? 'The filters are not valid.' } };
  }
  return { ok: true, query };
}

/** Filters a saved search restores: whatever of a stored query the form can show. */
export function filtersFromQuery(q: CatalogSearchRequestInput): CatalogFilters {
  const f = emptyFilters();
  const [a, b] = (q.datetime ?? '').split('/');
  const day = (iso: string | undefined) => {
    if (!iso || iso === '..') return '';
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return '';
    return d.toISOString().slice(0, 10);
  };
  f.dateFrom = day(a);
  f.dateTo = day(b ?? a);
  const lte = (key: string) => {
    const v = q.query?.[key]?.lte;
    return typeof v === 'number' ? String(v) : '';
  };
  f.cloudMax = lte('eo:cloud_cover');
  f.offNadirMax = lte('view:off_nadir');
  f.gsdMax = lte('gsd');
  const sunMin = q.query?.['view:sun_elevation']?.gte;
  f.sunElevationMin = typeof sunMin === 'number' ? String(sunMin) : '';
  const platforms = q.query?.platform?.eq;
  f.platforms = (
    Array.isArray(platforms) ? platforms : platforms === undefined ? [] : [platforms]
  ).filter((p): p is string => typeof p === 'string');
  f.collections = [...(q.collections ?? [])];
  if (q.bbox) f.area = { kind: 'view', bbox: [...q.bbox] as LonLatBox };
  else {
    const g = q.intersects as Geometry | undefined;
    if (g?.type === 'Polygon') f.area = { kind: 'polygon', geometry: g };
  }
  const s = q.sort_by?.[0];
  const found = (Object.keys(SORTS) as SortKey[]).find(
    (k) => SORTS[k].field === s?.field && SORTS[k].direction === (s?.direction ?? 'asc'),
  );
  if (found) f.sort = found;
  return f;
}
