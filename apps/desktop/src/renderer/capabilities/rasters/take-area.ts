/**
 * The area of a site to take offline, as the user chose it: the record's own area (an AOI, an
 * order item), the search area drawn on the map, the areas of a field file, the map view, or a
 * buffer around the device's position (else the map's centre). Becomes `rasters.take`'s
 * `area`; its box is what the stored window covers (whole tiles of it), so the estimate is the
 * box's.
 */
import { geometryBbox, type Geometry, type MultiPolygon, type Polygon } from '@eo/domain';
import type { SiteAreaInput } from '../../../shared/contract';
import type { LonLatBox } from '../../stores/catalog-filters';
import { boxAreaM2 } from './take-estimate';

export type AreaShape = Polygon | MultiPolygon;

export type TakeAreaKind = 'own' | 'drawn' | 'file' | 'view' | 'around';

/** A named shape (an AOI's, an order item's, the drawn one, a file's). */
export interface NamedShape {
  readonly label: string;
  readonly geometry: AreaShape;
}

/**
 * The areas of a geometry (or a FeatureCollection's features) as one shape: polygons side by
 * side in a MultiPolygon; null when it has none (a point, a line).
 */
export function shapeOf(g: unknown): AreaShape | null {
  const polys: Polygon['coordinates'][] = [];
  const walk = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    const o = x as { type?: string; coordinates?: unknown; geometries?: unknown[] };
    if (o.type === 'Polygon') polys.push(o.coordinates as Polygon['coordinates']);
    else if (o.type === 'MultiPolygon')
      polys.push(...(o.coordinates as MultiPolygon['coordinates']));
    else if (o.type === 'GeometryCollection') o.geometries?.forEach(walk);
    else if (o.type === 'Feature') walk((x as { geometry?: unknown }).geometry);
    else if (o.type === 'FeatureCollection')
      (x as { features?: unknown[] }).features?.forEach(walk);
  };
  walk(g);
  if (polys.length === 0) return null;
  return polys.length === 1
    ? { type: 'Polygon', coordinates: polys[0]! }
    : { type: 'MultiPolygon', coordinates: polys };
}

/** The map view as a shape. */
export function viewShape(v: LonLatBox): Polygon {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [v[0], v[1]],
        [v[2], v[1]],
        [v[2], v[3]],
        [v[0], v[3]],
        [v[0], v[1]],
      ],
    ],
  };
}

/** Square metres the stored window will cover: the shape's box. */
export function shapeBoxAreaM2(shape: AreaShape): number | null {
  const b = geometryBbox(shape as Geometry);
  return b ? boxAreaM2(b) : null;
}

/** A buffer's window: the circle's box. */
export const aroundBoxAreaM2 = (radiusM: number) => (2 * radiusM) ** 2;

type ShapeInput = Extract<SiteAreaInput, { kind: 'shape' }>;

/** The shape as `rasters.take` is asked (the backend's contract checks its rings). */
export function shapeArea(shape: NamedShape): ShapeInput {
  const label = shape.label.trim().slice(0, 200) || 'Area';
  return { kind: 'shape', label, geometry: shape.geometry as ShapeInput['geometry'] };
}
