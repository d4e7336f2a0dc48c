/**
 * What a GeoPackage feature table is made of: attribute columns typed by the values they hold,
 * and the geometry type the layer declares (GeoPackage requires the column's SQL type to be the
 * declared one, so the schema is known before the first feature is written). Polygons beside
 * multipolygons (AOIs, footprints across the antimeridian) make a MULTIPOLYGON layer, the
 * single ones promoted as GDAL's PROMOTE_TO_MULTI does, rather than an untyped GEOMETRY one.
 */
import type { Geometry } from '@eo/domain';
import type { ExportFeature, Scalar } from './feature';

/**
 * SQL types of attribute columns (BOOLEAN is stored as 0/1; DATETIME and DATE hold the ISO-8601
 * text as it is, which is what GeoPackage stores for them, so QGIS and GDAL see dates, not text).
 */
export type ColumnType = 'INTEGER' | 'REAL' | 'TEXT' | 'BOOLEAN' | 'DATETIME' | 'DATE';

/** A UTC instant as records carry it (`2024-05-01T10:30:00Z`, with any fraction of a second). */
const ISO_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;
const ISO_DATE = /^\d{4}-\d\d-\d\d$/;

/** An attribute column: the property it holds (`key`) and its type. */
export interface AttributeColumn {
  readonly key: string;
  readonly type: ColumnType;
}

/** A feature table's columns and the geometry type it declares. */
export interface LayerSchema {
  readonly columns: readonly AttributeColumn[];
  /** `POLYGON`, `MULTIPOLYGON`..., or `GEOMETRY` when the features mix types. */
  readonly geometryType: string;
}

/** A single type and its multi type: a layer of both declares the multi one (promoted). */
const MULTI_OF: Readonly<Record<string, string>> = {
  POINT: 'MULTIPOINT',
  LINESTRING: 'MULTILINESTRING',
  POLYGON: 'MULTIPOLYGON',
};

/** The type a layer of these geometry types declares: theirs, a shared multi type, or GEOMETRY. */
function layerGeometryType(types: ReadonlySet<string>, none: string): string {
  if (types.size === 0) return none;
  if (types.size === 1) return [...types][0]!;
  const [a, b] = [...types] as [string, string];
  if (types.size === 2 && (MULTI_OF[a] === b || MULTI_OF[b] === a)) return MULTI_OF[a] ?? a;
  return 'GEOMETRY';
}

/** The geometry as a layer of `layerType` holds it: a single one promoted to its multi type. */
export function promoteTo(g: Geometry, layerType: string): Geometry {
  switch (g.type) {
    case 'Point':
      return layerType === 'MULTIPOINT' ? { type: 'MultiPoint', coordinates: [g.coordinates] } : g;
    case 'LineString':
      return layerType === 'MULTILINESTRING'
        ? { type: 'MultiLineString', coordinates: [g.coordinates] }
        : g;
    case 'Polygon':
      return layerType === 'MULTIPOLYGON'
        ? { type: 'MultiPolygon', coordinates: [g.coordinates] }
        : g;
    default:
      return g;
  }
}

export const GEOMETRY_NAMES: Record<Geometry['type'], string> = {
  Point: 'POINT',
  LineString: 'LINESTRING',
  Polygon: 'POLYGON',
  MultiPoint: 'MULTIPOINT',
  MultiLineString: 'MULTILINESTRING',
  MultiPolygon: 'MULTIPOLYGON',
  GeometryCollection: 'GEOMETRYCOLLECTION',
};

const typeOfValue = (v: Exclude<Scalar, null>): ColumnType =>
  typeof v === 'boolean'
    ? 'BOOLEAN'
    : typeof v === 'number'
      ? Number.isInteger(v)
        ? 'INTEGER'
        : 'REAL'
      : ISO_DATETIME.test(v) && Number.isFinite(Date.parse(v))
        ? 'DATETIME'
        : ISO_DATE.test(v) && Number.isFinite(Date.parse(v))
          ? 'DATE'
          : 'TEXT';

/** The SQL type that holds values of both types. */
function widen(kind: ColumnType | null, k: ColumnType): ColumnType {
  if (kind === null || kind === k) return k;
  if ((kind === 'INTEGER' && k === 'REAL') || (kind === 'REAL' && k === 'INTEGER')) return 'REAL';
  return 'TEXT';
}

/** The SQL type that holds every value of a property. */
export function columnType(values: Iterable<Scalar>): ColumnType {
  let kind: ColumnType | null = null;
  for (const v of values) if (v !== null) kind = widen(kind, typeOfValue(v));
  return kind ?? 'TEXT';
}

/**
 * The schema of features seen one by one (a layer written in a second pass over a source too
 * large to hold): every property, typed by its values, first seen first, and the geometry type
 * they share. `base`: columns the layer has whatever its features (first, widened by what they
 * hold) and its geometry type when no feature has a geometry (default `GEOMETRY`).
 */
export function createLayerSchema(base: Partial<LayerSchema> = {}) {
  const kinds = new Map<string, ColumnType | null>(
    (base.columns ?? []).map((c) => [c.key, c.type]),
  );
  const types = new Set<string>();
  return {
    add(f: ExportFeature): void {
      for (const [k, v] of Object.entries(f.properties)) {
        const kind = kinds.get(k) ?? null;
        kinds.set(k, v === null ? kind : widen(kind, typeOfValue(v)));
      }
      if (f.geometry) types.add(GEOMETRY_NAMES[f.geometry.type]);
    },
    schema(): LayerSchema {
      return {
        columns: [...kinds].map(([key, type]) => ({ key, type: type ?? 'TEXT' })),
        geometryType: layerGeometryType(types, base.geometryType ?? 'GEOMETRY'),
      };
    },
  };
}

/** The schema of a set of features held in memory. */
export function schemaOf(features: readonly ExportFeature[]): LayerSchema {
  const collect = createLayerSchema();
  for (const f of features) collect.add(f);
  return collect.schema();
}
