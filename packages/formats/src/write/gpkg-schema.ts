/**
 * What a GeoPackage feature table is made of: attribute columns typed by the values they hold,
 * and the geometry type the layer declares (GeoPackage requires the column's SQL type to be the
 * declared one, so the schema is known before the first feature is written).
 */
import type { Geometry } from '@eo/domain';
import type { ExportFeature, Scalar } from './feature';

/** SQL types of attribute columns (BOOLEAN is stored as 0/1). */
export type ColumnType = 'INTEGER' | 'REAL' | 'TEXT' | 'BOOLEAN';

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
        geometryType:
          types.size === 1
            ? [...types][0]!
            : types.size === 0
              ? (base.geometryType ?? 'GEOMETRY')
              : 'GEOMETRY',
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
