/**
 * The geometry the order flow needs, on top of the domain's (`geodesicArea`,
 * `geometryIntersects`, closed point containment): the area of an order item's
 * FeatureCollection, and whether archive footprints cover it.
 */
import type { FeatureCollectionInput, Geometry, Position } from '@eo/domain';
import { geodesicArea, geometryPrimitives, primitivesContainPoint } from '@eo/domain';

/** The geometries of an order item's FeatureCollection. */
export function featureGeometries(fc: FeatureCollectionInput): Geometry[] {
  return fc.features.map((f) => f.geometry);
}

/** Area of a FeatureCollection in km²: the sum over its features (overlaps count twice). */
export function featureCollectionAreaKm2(fc: FeatureCollectionInput): number {
  return featureGeometries(fc).reduce((s, g) => s + geodesicArea(g), 0) / 1e6;
}

/** Every vertex of a geometry. */
export function verticesOf(g: Geometry): Position[] {
  switch (g.type) {
    case 'Point':
      return [g.coordinates];
    case 'MultiPoint':
    case 'LineString':
      return g.coordinates;
    case 'MultiLineString':
    case 'Polygon':
      return g.coordinates.flat();
    case 'MultiPolygon':
      return g.coordinates.flat(2);
    case 'GeometryCollection':
      return g.geometries.flatMap(verticesOf);
  }
}

/**
 * Whether the union of the footprints covers the geometry, judged on its vertices (closed:
 * a vertex on a footprint's edge is covered). Exact for a single convex footprint, such as a
 * scene quadrilateral; for several footprints a geometry edge could in principle cross a gap
 * between them while both of its ends are covered.
 */
export function footprintsCover(footprints: readonly Geometry[], g: Geometry): boolean {
  const prims = footprints.map(geometryPrimitives);
  return verticesOf(g).every(([x, y]) => prims.some((p) => primitivesContainPoint(p, x!, y!)));
}
