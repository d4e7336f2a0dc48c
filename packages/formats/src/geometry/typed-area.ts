/**
 * An area typed or pasted instead of drawn (drawing without a mouse): a box as four numbers
 * (west, south, east, north, the order of GeoJSON and STAC bboxes; a west greater than the east
 * crosses the antimeridian), WKT (what QGIS's "Copy as WKT" and PostGIS give), or GeoJSON (a
 * geometry, a Feature, or a FeatureCollection whose areas are put side by side). The result is
 * checked and repaired like an imported file's area (`checkArea`), so a typed area and a drawn
 * or imported one meet the same rules, and a refusal says what is wrong.
 */
import type { Geometry } from '@eo/domain';
import { importFile } from '../import';
import { checkArea, mergeAreas, type AreaResult } from './area';
import { readWkt } from './wkt-read';

export const TYPED_AREA_KINDS = ['box', 'wkt', 'geojson'] as const;
export type TypedAreaKind = (typeof TYPED_AREA_KINDS)[number];

export interface TypedArea extends AreaResult {
  /** What the text was read as (null: not recognised). */
  readonly kind: TypedAreaKind | null;
}

/** Longest text read (a polygon of the service's maximum vertices as GeoJSON fits). */
export const MAX_TYPED_AREA_CHARS = 512 * 1024;

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const WKT_START = /^(SRID=\d+;)?\s*(MULTI)?(POLYGON|POINT|LINESTRING|GEOMETRYCOLLECTION)\b/i;

const refused = (kind: TypedAreaKind | null, problem: string): TypedArea => ({
  kind,
  area: null,
  repairs: [],
  problem,
});

/** `w, s, e, n` (commas, spaces or semicolons between them) as a polygon, or why not. */
function box(parts: readonly number[]): Geometry | string {
  const [w, s, e, n] = parts as [number, number, number, number];
  if ([w, e].some((x) => x < -180 || x > 180)) return 'west and east are longitudes (-180 to 180)';
  if ([s, n].some((y) => y < -90 || y > 90)) return 'south and north are latitudes (-90 to 90)';
  if (s >= n) return 'south must be less than north (the order is west, south, east, north)';
  if (w === e) return 'west and east are the same longitude: the box has no width';
  // West beyond east: the box crosses the antimeridian (checkArea splits it there).
  const east = e < w ? e + 360 : e;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [east, s],
        [east, n],
        [w, n],
        [w, s],
      ],
    ],
  };
}

async function geoJsonArea(text: string): Promise<TypedArea> {
  try {
    const preview = await importFile('typed.geojson', new TextEncoder().encode(text), {
      format: 'geojson',
    });
    const areas = preview.features.filter((f) => f.area);
    if (areas.length === 0) {
      const why = preview.features.find((f) => f.problem)?.problem ?? 'no area in it';
      return refused('geojson', why);
    }
    const repairs = areas.flatMap((f) => f.repairs);
    if (areas.length === 1)
      return { kind: 'geojson', area: areas[0]!.area, repairs, problem: null };
    const checked = checkArea(mergeAreas(areas.map((f) => f.area!)));
    return {
      kind: 'geojson',
      ...checked,
      repairs: [...repairs, `put ${areas.length} areas side by side`, ...checked.repairs],
    };
  } catch (e) {
    return refused('geojson', e instanceof Error ? e.message : String(e));
  }
}

export async function readTypedArea(input: string): Promise<TypedArea> {
  const text = input.trim();
  if (!text) return refused(null, 'nothing typed');
  if (text.length > MAX_TYPED_AREA_CHARS)
    return refused(null, `${text.length} characters: at most ${MAX_TYPED_AREA_CHARS} are read`);
  if (text.startsWith('{')) return geoJsonArea(text);
  if (WKT_START.test(text)) {
    try {
      return { kind: 'wkt', ...checkArea(readWkt(text)) };
    } catch (e) {
      return refused('wkt', e instanceof Error ? e.message : String(e));
    }
  }
  const parts = text
    .replace(/^\[|\]$/g, '')
    .split(/[\s,;]+/)
    .filter(Boolean);
  if (parts.length === 4 && parts.every((p) => NUMBER.test(p))) {
    const g = box(parts.map(Number));
    return typeof g === 'string' ? refused('box', g) : { kind: 'box', ...checkArea(g) };
  }
  return refused(
    null,
    'not a box (west, south, east, north), WKT (POLYGON ((…))) or GeoJSON ({ "type": … })',
  );
}
