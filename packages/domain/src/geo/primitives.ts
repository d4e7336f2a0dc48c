/**
 * Decomposition of any GeoJSON geometry into the three kinds of primitive the intersection
 * test works on: isolated points, line chains (consecutive segments) and polygons (rings).
 *
 * Coordinates are planar lon/lat (x = longitude, y = latitude); altitude is ignored. Nothing
 * is normalised or projected: a polygon whose longitudes jump from 179 to -179 spans the globe
 * the long way (RFC 7946 asks producers to split such shapes at the antimeridian).
 *
 * Tolerances for imperfect input (response geometries are validated only structurally):
 * positions with fewer than two numbers are skipped; a line with a single position is a point;
 * an unclosed ring is closed implicitly; an empty ring is dropped, and a polygon with an empty
 * exterior ring is dropped.
 */
import type { Geometry, Position } from '../geometry';

/** [west, south, east, north]: planar min/max of longitude and latitude. */
export type Bounds = [west: number, south: number, east: number, north: number];

/** A chain of positions, flat `[x0, y0, x1, y1, ...]`, with its bounds. */
export interface Chain {
  readonly coords: number[];
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
}

/** A polygon: ring 0 is the exterior, the others are holes. Every ring is closed (last = first). */
export interface PolygonPrimitive {
  readonly rings: Chain[];
}

export interface GeometryPrimitives {
  /** Isolated points (Point, MultiPoint, single-position lines), flat `[x0, y0, x1, y1, ...]`. */
  readonly points: number[];
  /** Line strings, each a chain of at least two positions (its segments join consecutive positions). */
  readonly lines: Chain[];
  /** Polygons with their holes. Their edges are the segments of their rings. */
  readonly polygons: PolygonPrimitive[];
  /** Bounds of everything above, or null when the geometry has no position at all. */
  readonly bounds: Bounds | null;
}

/** Decomposes a geometry (nested GeometryCollections included) into primitives. */
export function geometryPrimitives(geometry: Geometry): GeometryPrimitives {
  const b = new Builder();
  b.collect(geometry);
  return {
    points: b.points,
    lines: b.lines,
    polygons: b.polygons,
    bounds: b.west <= b.east ? [b.west, b.south, b.east, b.north] : null,
  };
}

/** Collects primitives and their bounds in one pass (this runs once per candidate record). */
class Builder {
  readonly points: number[] = [];
  readonly lines: Chain[] = [];
  readonly polygons: PolygonPrimitive[] = [];
  west = Infinity;
  south = Infinity;
  east = -Infinity;
  north = -Infinity;

  collect(g: Geometry): void {
    switch (g.type) {
      case 'Point':
        this.point(g.coordinates);
        return;
      case 'MultiPoint':
        for (const p of g.coordinates) this.point(p);
        return;
      case 'LineString':
        this.line(g.coordinates);
        return;
      case 'MultiLineString':
        for (const l of g.coordinates) this.line(l);
        return;
      case 'Polygon':
        this.polygon(g.coordinates);
        return;
      case 'MultiPolygon':
        for (const p of g.coordinates) this.polygon(p);
        return;
      case 'GeometryCollection':
        for (const child of g.geometries) this.collect(child);
        return;
    }
  }

  private point(p: Position): void {
    const x = p[0];
    const y = p[1];
    if (x === undefined || y === undefined) return;
    this.points.push(x, y);
    if (x < this.west) this.west = x;
    if (x > this.east) this.east = x;
    if (y < this.south) this.south = y;
    if (y > this.north) this.north = y;
  }

  private line(positions: readonly Position[]): void {
    const chain = makeChain(positions, false);
    if (chain === null) return;
    if (chain.coords.length === 2) {
      this.point(chain.coords);
      return;
    }
    this.lines.push(chain);
    this.extend(chain);
  }

  private polygon(rings: readonly Position[][]): void {
    const chains: Chain[] = [];
    for (let i = 0; i < rings.length; i++) {
      const chain = makeChain(rings[i]!, true);
      if (chain !== null) chains.push(chain);
      else if (i === 0) return; // no exterior: nothing to bound the holes
    }
    if (chains.length === 0) return;
    this.polygons.push({ rings: chains });
    // Every ring, not just the exterior: a hole drawn outside its exterior (invalid, but
    // possible in response data) still has edges that count as boundary.
    for (const c of chains) this.extend(c);
  }

  private extend(c: Chain): void {
    if (c.west < this.west) this.west = c.west;
    if (c.east > this.east) this.east = c.east;
    if (c.south < this.south) this.south = c.south;
    if (c.north > this.north) this.north = c.north;
  }
}

/** A chain of the usable positions, closed when `close` and not already closed; null if empty. */
export function makeChain(positions: readonly Position[], close: boolean): Chain | null {
  const coords: number[] = [];
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const p of positions) {
    const x = p[0];
    const y = p[1];
    if (x === undefined || y === undefined) continue;
    coords.push(x, y);
    if (x < west) west = x;
    if (x > east) east = x;
    if (y < south) south = y;
    if (y > north) north = y;
  }
  const n = coords.length;
  if (n === 0) return null;
  if (close && (coords[0] !== coords[n - 2] || coords[1] !== coords[n - 1] || n === 2)) {
    coords.push(coords[0]!, coords[1]!);
  }
  return { coords, west, south, east, north };
}
