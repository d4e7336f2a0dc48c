/**
 * GeoJSON geometry (spec 2.1; RFC 7946), in two flavours:
 * - `Geometry`: tolerant, for responses (structure checked, extra members kept).
 * - `GeometryInput`: for requests: strict members, WGS84 ranges, closed rings with >= 4 positions.
 * Plus the FeatureCollection form order items take on input.
 */
import { z } from 'zod';

export type Position = number[];
export interface Point {
  type: 'Point';
  coordinates: Position;
}
export interface MultiPoint {
  type: 'MultiPoint';
  coordinates: Position[];
}
export interface LineString {
  type: 'LineString';
  coordinates: Position[];
}
export interface MultiLineString {
  type: 'MultiLineString';
  coordinates: Position[][];
}
export interface Polygon {
  type: 'Polygon';
  coordinates: Position[][];
}
export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}
export interface GeometryCollection {
  type: 'GeometryCollection';
  geometries: Geometry[];
}
export type Geometry =
  Point | MultiPoint | LineString | MultiLineString | Polygon | MultiPolygon | GeometryCollection;
export type GeometryType = Geometry['type'];

export const GEOMETRY_TYPES = [
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
] as const satisfies readonly GeometryType[];

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

// --- tolerant (responses) -------------------------------------------------------------------

const PositionSchema = z.array(finite).min(2, 'a position has at least 2 numbers (lon, lat)');

export const Geometry: z.ZodType<Geometry> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('Point'), coordinates: PositionSchema }),
    z.looseObject({ type: z.literal('MultiPoint'), coordinates: z.array(PositionSchema) }),
    z.looseObject({ type: z.literal('LineString'), coordinates: z.array(PositionSchema) }),
    z.looseObject({
      type: z.literal('MultiLineString'),
      coordinates: z.array(z.array(PositionSchema)),
    }),
    z.looseObject({ type: z.literal('Polygon'), coordinates: z.array(z.array(PositionSchema)) }),
    z.looseObject({
      type: z.literal('MultiPolygon'),
      coordinates: z.array(z.array(z.array(PositionSchema))),
    }),
    z.looseObject({ type: z.literal('GeometryCollection'), geometries: z.array(Geometry) }),
  ]),
) as z.ZodType<Geometry>;

// --- strict (requests) ----------------------------------------------------------------------

const Lon = finite.min(-180, 'longitude must be >= -180').max(180, 'longitude must be <= 180');
const Lat = finite.min(-90, 'latitude must be >= -90').max(90, 'latitude must be <= 90');
/** [lon, lat] or [lon, lat, altitude]. */
const PositionInput = z.union([z.tuple([Lon, Lat]), z.tuple([Lon, Lat, finite])], {
  error: 'a position is [longitude, latitude] or [longitude, latitude, altitude]',
});
const LineInput = z.array(PositionInput).min(2, 'a line string has at least 2 positions');
const RingInput = z
  .array(PositionInput)
  .min(4, 'a polygon ring has at least 4 positions (first repeated last)')
  .superRefine((ring, ctx) => {
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (first && last && (first[0] !== last[0] || first[1] !== last[1])) {
      ctx.addIssue({
        code: 'custom',
        message: 'a polygon ring must be closed: its last position must equal its first',
      });
    }
  });
const PolygonCoords = z.array(RingInput).min(1, 'a polygon has at least an outer ring');
const bboxMember = { bbox: z.array(finite).optional() };

export const PointInput = z.strictObject({
  type: z.literal('Point'),
  coordinates: PositionInput,
  ...bboxMember,
});
export const MultiPointInput = z.strictObject({
  type: z.literal('MultiPoint'),
  coordinates: z.array(PositionInput).min(1),
  ...bboxMember,
});
export const LineStringInput = z.strictObject({
  type: z.literal('LineString'),
  coordinates: LineInput,
  ...bboxMember,
});
export const MultiLineStringInput = z.strictObject({
  type: z.literal('MultiLineString'),
  coordinates: z.array(LineInput).min(1),
  ...bboxMember,
});
export const PolygonInput = z.strictObject({
  type: z.literal('Polygon'),
  coordinates: PolygonCoords,
  ...bboxMember,
});
export const MultiPolygonInput = z.strictObject({
  type: z.literal('MultiPolygon'),
  coordinates: z.array(PolygonCoords).min(1),
  ...bboxMember,
});

export const GeometryInput: z.ZodType<Geometry> = z.lazy(() =>
  z.discriminatedUnion('type', [
    PointInput,
    MultiPointInput,
    LineStringInput,
    MultiLineStringInput,
    PolygonInput,
    MultiPolygonInput,
    z.strictObject({
      type: z.literal('GeometryCollection'),
      geometries: z.array(GeometryInput).min(1, 'a geometry collection has at least one geometry'),
      ...bboxMember,
    }),
  ]),
) as z.ZodType<Geometry>;

/** An area: Polygon or MultiPolygon (AOIs, tasking footprints). */
export const AreaGeometryInput = z.discriminatedUnion('type', [PolygonInput, MultiPolygonInput]);

// --- FeatureCollection input form (order items) -----------------------------------------------

export const FeatureInput = z.strictObject({
  type: z.literal('Feature'),
  geometry: GeometryInput,
  properties: z.record(z.string(), z.unknown()).nullable().optional(),
  id: z.union([z.string(), z.number()]).optional(),
  bbox: z.array(finite).optional(),
});

export const FeatureCollectionInput = z.strictObject({
  type: z.literal('FeatureCollection'),
  features: z.array(FeatureInput).min(1, 'a feature collection needs at least one feature'),
  bbox: z.array(finite).optional(),
});
export type FeatureCollectionInput = z.infer<typeof FeatureCollectionInput>;

/** Tolerant FeatureCollection (order item geometry as a service returns it). */
export const FeatureCollection = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(z.looseObject({ type: z.literal('Feature'), geometry: Geometry.nullable() })),
});

/** Either a bare geometry or a FeatureCollection: what an order item's geometry may come back as. */
export const GeometryOrFeatureCollection = z.union([Geometry, FeatureCollection]);
