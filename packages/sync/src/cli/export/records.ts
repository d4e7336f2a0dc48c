/**
 * Mirrored records as export features. Geometries are read with the domain schema: a geometry
 * that does not parse is exported as null (the attributes still go out), never guessed at.
 */
import { Geometry, GeometryOrFeatureCollection, type Geometry as GeometryValue } from '@eo/domain';
// The feature shape alone, not the package's index: the desktop's backend re-exports these
// builders at start-up and loads the readers and writers (XML, zip, projections) on first use.
import { scalarFields, type ExportFeature, type Scalar } from '@eo/formats/feature';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};

function geometryOf(v: unknown): GeometryValue | null {
  const parsed = Geometry.safeParse(v);
  return parsed.success ? parsed.data : null;
}

function bboxOf(v: unknown): number[] | undefined {
  return Array.isArray(v) && v.length >= 4 && v.every((n) => Number.isFinite(n))
    ? (v as number[])
    : undefined;
}

/** A catalog record: id, datetime, collection, cloud, platform, then its other scalar STAC properties; its footprint and bbox. */
export function catalogFeature(record: unknown): ExportFeature {
  const r = obj(record);
  const d = obj(r.details);
  const stac = scalarFields(d.properties);
  // The attributes a field team sorts by come first (CSV columns), then the rest in record order.
  const properties: Record<string, Scalar> = {
    id: typeof r.id === 'string' || typeof r.id === 'number' ? r.id : null,
    datetime: stac.datetime ?? null,
    collection: typeof d.collection === 'string' ? d.collection : null,
    'eo:cloud_cover': stac['eo:cloud_cover'] ?? null,
    platform: stac.platform ?? null,
    ...stac,
  };
  return { geometry: geometryOf(d.geometry), properties, bbox: bboxOf(d.bbox) };
}

/**
 * An order item's area as one geometry: its FeatureCollection's areas joined in a MultiPolygon
 * (a single one stays as it is; other kinds make a GeometryCollection).
 */
export function orderItemGeometry(v: unknown): GeometryValue | null {
  const parsed = GeometryOrFeatureCollection.safeParse(v);
  if (!parsed.success) return null;
  if (parsed.data.type !== 'FeatureCollection') return parsed.data as GeometryValue;
  const parts = parsed.data.features.flatMap((f) => (f.geometry ? [f.geometry] : []));
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0]!;
  if (parts.every((g) => g.type === 'Polygon' || g.type === 'MultiPolygon'))
    return {
      type: 'MultiPolygon',
      coordinates: parts.flatMap((g) =>
        g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [],
      ),
    };
  return { type: 'GeometryCollection', geometries: parts };
}

/** One order item, with the id and status of its order. */
export function orderItemFeature(order: unknown, item: unknown): ExportFeature {
  const o = obj(order);
  const i = obj(item);
  return {
    geometry: orderItemGeometry(i.geometry),
    properties: {
      order_id: typeof o.id === 'string' ? o.id : null,
      order_status: typeof o.status === 'string' ? o.status : null,
      ...scalarFields(i),
    },
  };
}

/** An AOI: its scalar fields (id, name, status, project, …) and its geometry. */
export function aoiFeature(aoi: unknown): ExportFeature {
  const a = obj(aoi);
  return { geometry: geometryOf(a.geometry), properties: scalarFields(a) };
}

/**
 * A delivery: its scalar fields (delivery_id, status, catalog_id, task_id, target_path, …), its
 * cloud location's config and path, and the area it delivers (the caller finds it: the catalog
 * record's footprint, or the order item holding the task).
 */
export function deliveryFeature(delivery: unknown, geometry: unknown): ExportFeature {
  const d = obj(delivery);
  const cloud = obj(d.cloud_delivery);
  return {
    geometry: orderItemGeometry(geometry),
    properties: {
      ...scalarFields(d),
      cloud_config: typeof cloud.config === 'string' ? cloud.config : null,
      cloud_path: typeof cloud.path === 'string' ? cloud.path : null,
    },
  };
}
