/**
 * GeoJSON values checked with the domain's request schemas (a FeatureCollection, one Feature or
 * a bare geometry), so a bad one is refused here with a readable reason instead of by the
 * service later: the catalog footprints an order item takes. Field files themselves are read
 * by the backend (`files.preview`, capabilities/file-import/), never here. One reader for both
 * forms: `importGeoJson` gives the order item form (a FeatureCollection), `areaOf` narrows it
 * to the Polygon / MultiPolygon an AOI needs.
 */
import {
  AreaGeometryInput,
  FeatureCollectionInput,
  GEOMETRY_TYPES,
  GeometryInput,
  type Geometry,
  type MultiPolygon,
  type Polygon,
} from '@eo/domain';
import type { z } from 'zod';

export type Imported<T> = { ok: true; value: T } | { ok: false; message: string };

type Feature = FeatureCollectionInput['features'][number];

function describeIssues(error: z.ZodError, what: string): string {
  const first = error.issues.slice(0, 3).map((i) => {
    const where = i.path.length ? `${i.path.map(String).join('.')}: ` : '';
    return `${where}${i.message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more problems)` : '';
  return `This ${what} is not valid: ${first.join('; ')}${more}.`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A feature with only the members the request schema knows. Files from GIS tools carry foreign
 * members (`name`, `crs`, ...) that GeoJSON allows but the strict request schema refuses; they
 * say nothing the service uses, so they are dropped rather than failing the import.
 */
function cleanFeature(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const out: Record<string, unknown> = { type: raw['type'], geometry: raw['geometry'] };
  if (raw['properties'] !== undefined) out['properties'] = raw['properties'];
  if (raw['id'] !== undefined) out['id'] = raw['id'];
  return out;
}

/** Parses GeoJSON text into the FeatureCollection form order items take. */
export function importGeoJson(text: string): Imported<FeatureCollectionInput> {
  if (!text.trim()) return { ok: false, message: 'The file is empty.' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, message: `The file is not valid JSON (${why}).` };
  }
  return importGeoJsonValue(json);
}

/** The same checks on an already parsed value (e.g. catalog footprints gathered in memory). */
export function importGeoJsonValue(json: unknown): Imported<FeatureCollectionInput> {
  if (!isObject(json) || typeof json['type'] !== 'string') {
    return {
      ok: false,
      message:
        'The file is not GeoJSON: expected a FeatureCollection, a Feature or a geometry with a "type".',
    };
  }
  const type = json['type'];
  let candidate: unknown;
  let what: string;
  if (type === 'FeatureCollection') {
    const features = json['features'];
    candidate = {
      type,
      features: Array.isArray(features) ? features.map(cleanFeature) : features,
    };
    what = 'FeatureCollection';
  } else if (type === 'Feature') {
    candidate = { type: 'FeatureCollection', features: [cleanFeature(json)] };
    what = 'Feature';
  } else if ((GEOMETRY_TYPES as readonly string[]).includes(type)) {
    const geometry = GeometryInput.safeParse(json);
    if (!geometry.success) return { ok: false, message: describeIssues(geometry.error, type) };
    candidate = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: geometry.data, properties: {} }],
    };
    what = type;
  } else {
    return {
      ok: false,
      message: `The file is not GeoJSON this app can use: its type is "${type.slice(0, 40)}"; expected a FeatureCollection, a Feature or a geometry.`,
    };
  }
  const parsed = FeatureCollectionInput.safeParse(candidate);
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error, what) };
  return { ok: true, value: parsed.data };
}

function polygonsOf(geometry: Geometry, out: Polygon['coordinates'][]): string | null {
  switch (geometry.type) {
    case 'Polygon':
      out.push(geometry.coordinates);
      return null;
    case 'MultiPolygon':
      out.push(...geometry.coordinates);
      return null;
    case 'GeometryCollection':
      for (const g of geometry.geometries) {
        const bad = polygonsOf(g, out);
        if (bad) return bad;
      }
      return null;
    default:
      return geometry.type;
  }
}

/**
 * The area of a FeatureCollection as one Polygon (one polygon in it) or MultiPolygon (several):
 * an AOI is a single area geometry. Points and lines are refused, they have no area.
 */
export function areaOf(fc: FeatureCollectionInput): Imported<Polygon | MultiPolygon> {
  const polygons: Polygon['coordinates'][] = [];
  for (const [k, feature] of fc.features.entries()) {
    const bad = polygonsOf((feature as Feature).geometry, polygons);
    if (bad) {
      return {
        ok: false,
        message: `An area of interest must be a Polygon or MultiPolygon, but feature ${k + 1} is a ${bad}.`,
      };
    }
  }
  const geometry: Polygon | MultiPolygon =
    polygons.length === 1
      ? { type: 'Polygon', coordinates: polygons[0]! }
      : { type: 'MultiPolygon', coordinates: polygons };
  const parsed = AreaGeometryInput.safeParse(geometry);
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error, 'area') };
  return { ok: true, value: parsed.data as Polygon | MultiPolygon };
}
