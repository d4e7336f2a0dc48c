/**
 * GeoJSON geometry (spec 2.1; RFC 7946), in two flavours:
 * - `Geometry`: tolerant, for responses (structure checked, extra members kept).
 * - `GeometryInput`: for requests: strict members, WGS84 ranges, closed rings with >= 4 positions,
 *   and the caps of `LIMITS` (vertices per geometry, parts, holes per polygon), so no single
 *   request can store megabytes of coordinates.
 * - `AreaGeometryInput`: where an area is needed (AOIs, order item features): Polygon or
 *   MultiPolygon that is a valid area (`geo/validity.ts`: no self-intersection, no degenerate
 *   ring), one rule for every endpoint.
 * Plus the FeatureCollection forms order items take on input.
 */
import { z } from 'zod';
import { polygonProblem } from './geo/validity';
import { LIMITS } from './limits';

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
const TOO_MANY_VERTICES = `a geometry has at most ${LIMITS.maxGeometryVertices} positions`;
const TOO_MANY_PARTS = `a geometry has at most ${LIMITS.maxGeometryParts} parts`;
const LineInput = z
  .array(PositionInput)
  .min(2, 'a line string has at least 2 positions')
  .max(LIMITS.maxGeometryVertices, TOO_MANY_VERTICES);
const RingInput = z
  .array(PositionInput)
  .min(4, 'a polygon ring has at least 4 positions (first repeated last)')
  .max(LIMITS.maxGeometryVertices, TOO_MANY_VERTICES)
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
const PolygonCoords = z
  .array(RingInput)
  .min(1, 'a polygon has at least an outer ring')
  .max(
    LIMITS.maxPolygonHoles + 1,
    `a polygon has at most ${LIMITS.maxPolygonHoles} holes (inner rings)`,
  );
const bboxMember = { bbox: z.array(finite).optional() };

export const PointInput = z.strictObject({
  type: z.literal('Point'),
  coordinates: PositionInput,
  ...bboxMember,
});
export const MultiPointInput = z.strictObject({
  type: z.literal('MultiPoint'),
  coordinates: z.array(PositionInput).min(1).max(LIMITS.maxGeometryVertices, TOO_MANY_VERTICES),
  ...bboxMember,
});
export const LineStringInput = z.strictObject({
  type: z.literal('LineString'),
  coordinates: LineInput,
  ...bboxMember,
});
export const MultiLineStringInput = z.strictObject({
  type: z.literal('MultiLineString'),
  coordinates: z.array(LineInput).min(1).max(LIMITS.maxGeometryParts, TOO_MANY_PARTS),
  ...bboxMember,
});
export const PolygonInput = z.strictObject({
  type: z.literal('Polygon'),
  coordinates: PolygonCoords,
  ...bboxMember,
});
export const MultiPolygonInput = z.strictObject({
  type: z.literal('MultiPolygon'),
  coordinates: z.array(PolygonCoords).min(1).max(LIMITS.maxGeometryParts, TOO_MANY_PARTS),
  ...bboxMember,
});

/** Positions of a geometry (all rings, parts and members). */
export function positionCount(g: Geometry): number {
  switch (g.type) {
    case 'Point':
      return 1;
    case 'MultiPoint':
    case 'LineString':
      return g.coordinates.length;
    case 'MultiLineString':
    case 'Polygon':
      return g.coordinates.reduce((n, r) => n + r.length, 0);
    case 'MultiPolygon':
      return g.coordinates.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0);
    case 'GeometryCollection':
      return g.geometries.reduce((n, m) => n + positionCount(m), 0);
  }
}

function capVertices(g: Geometry, ctx: z.RefinementCtx): void {
  const n = positionCount(g);
  if (n > LIMITS.maxGeometryVertices)
    ctx.addIssue({ code: 'custom', message: `${TOO_MANY_VERTICES}; this one has ${n}` });
}

export const GeometryInput: z.ZodType<Geometry> = z.lazy(() =>
  z
    .discriminatedUnion('type', [
      PointInput,
      MultiPointInput,
      LineStringInput,
      MultiLineStringInput,
      PolygonInput,
      MultiPolygonInput,
      z.strictObject({
        type: z.literal('GeometryCollection'),
        geometries: z
          .array(GeometryInput)
          .min(1, 'a geometry collection has at least one geometry')
          .max(LIMITS.maxGeometryParts, TOO_MANY_PARTS),
        ...bboxMember,
      }),
    ])
    .superRefine((g, ctx) => capVertices(g as Geometry, ctx)),
) as z.ZodType<Geometry>;

/**
 * An area (AOIs, order item features): a Polygon or MultiPolygon within the caps whose every
 * polygon is a valid area (`polygonProblem`); the issue's path names the ring at fault.
 */
export const AreaGeometryInput = z
  .discriminatedUnion('type', [PolygonInput, MultiPolygonInput])
  .superRefine((g, ctx) => {
    capVertices(g, ctx);
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    polygons.forEach((rings, p) => {
      const issue = polygonProblem(rings);
      if (!issue) return;
      const at = g.type === 'Polygon' ? [issue.ring] : [p, issue.ring];
      ctx.addIssue({ code: 'custom', path: ['coordinates', ...at], message: issue.message });
    });
  });

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
  features: z
    .array(FeatureInput)
    .min(1, 'a feature collection needs at least one feature')
    .max(
      LIMITS.maxGeometryParts,
      `a feature collection has at most ${LIMITS.maxGeometryParts} features`,
    ),
  bbox: z.array(finite).optional(),
});
export type FeatureCollectionInput = z.infer<typeof FeatureCollectionInput>;

/**
 * An order item's geometry: a FeatureCollection of areas (every item is priced by its area and
 * a tasking needs one), within the vertex cap over all its features together. Typed as the
 * general form, so code holding a FeatureCollectionInput (imports, drafts) passes it as is.
 */
export const AreaFeatureCollectionInput: z.ZodType<
  FeatureCollectionInput,
  z.input<typeof FeatureCollectionInput>
> = FeatureCollectionInput.extend({
  features: z
    .array(FeatureInput.extend({ geometry: AreaGeometryInput }))
    .min(1, 'a feature collection needs at least one feature')
    .max(
      LIMITS.maxGeometryParts,
      `a feature collection has at most ${LIMITS.maxGeometryParts} features`,
    ),
}).superRefine((fc, ctx) => {
  const n = fc.features.reduce((sum, f) => sum + positionCount(f.geometry), 0);
  if (n > LIMITS.maxGeometryVertices)
    ctx.addIssue({
      code: 'custom',
      path: ['features'],
      message: `the features have at most ${LIMITS.maxGeometryVertices} positions together; these have ${n}`,
    });
});

/** Tolerant FeatureCollection (order item geometry as a service returns it). */
export const FeatureCollection = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(z.looseObject({ type: z.literal('Feature'), geometry: Geometry.nullable() })),
});

/** Either a bare geometry or a FeatureCollection: what an order item's geometry may come back as. */
export const GeometryOrFeatureCollection = z.union([Geometry, FeatureCollection]);
