/**
 * An imported geometry as an area the service takes (`AreaGeometryInput` of @eo/domain), with
 * the repairs that have one right answer done and written down: repeated consecutive
 * positions dropped, open rings closed, rings turned to RFC 7946 orientation (outer ring
 * counter-clockwise, holes clockwise), a third coordinate dropped, an area across the
 * antimeridian split at ±180° (`antimeridian.ts`), a closed line (a track walked around a field) made a polygon.
 * Everything else is refused with the reason: points and open lines where an area is needed,
 * self-intersections, positions outside longitude/latitude, more positions, parts or holes than
 * the service's caps (`LIMITS`).
 */
import { AreaGeometryInput, LIMITS, positionCount, type Geometry, type Position } from '@eo/domain';
import { crossesAntimeridian, splitAtAntimeridian } from './antimeridian';

export interface AreaResult {
  readonly area: Geometry | null;
  readonly repairs: readonly string[];
  readonly problem: string | null;
}

type Ring = Position[];
type Poly = Ring[];

class Refused extends Error {}

export function signedArea(ring: readonly Position[]): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    s += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  return s / 2; // > 0: counter-clockwise
}

interface Tally {
  repeated: number;
  closed: number;
  turned: number;
  dropped3d: boolean;
}

function cleanRing(ring: readonly Position[], outer: boolean, t: Tally): Ring {
  const out: Ring = [];
  for (const p of ring) {
    if (p.length < 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1]))
      throw new Refused('a position is not two finite numbers');
    const [x, y] = p as [number, number];
    if (x < -180 || x > 180 || y < -90 || y > 90)
      throw new Refused(
        `position ${x},${y} is outside longitude/latitude (a projected file without its CRS?)`,
      );
    if (p.length > 2) t.dropped3d = true;
    const last = out[out.length - 1];
    if (last && last[0] === x && last[1] === y) t.repeated += 1;
    else out.push([x, y]);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (first && last && out.length > 1 && (first[0] !== last[0] || first[1] !== last[1])) {
    out.push([first[0]!, first[1]!]);
    t.closed += 1;
  }
  if (out.length < 4) throw new Refused('a ring needs at least 3 distinct positions');
  const ccw = signedArea(out) > 0;
  if (ccw !== outer) {
    out.reverse();
    t.turned += 1;
  }
  return out;
}

const MAX_TRACK_GAP_M = 50;

function metres(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const x = (b[0]! - a[0]!) * rad * Math.cos(((a[1]! + b[1]!) / 2) * rad);
  const y = (b[1]! - a[1]!) * rad;
  return Math.hypot(x, y) * 6_371_008.8;
}

/** Polygons of a geometry, or the reason it is not an area. */
function polygonsOf(g: Geometry, repairs: string[]): Poly[] {
  switch (g.type) {
    case 'Polygon':
      return [g.coordinates];
    case 'MultiPolygon':
      return g.coordinates;
    case 'Point':
    case 'MultiPoint':
      throw new Refused(
        `a ${g.type === 'Point' ? 'point' : 'set of points'} where an area is needed`,
      );
    case 'LineString': {
      const c = g.coordinates;
      const first = c[0];
      const last = c[c.length - 1];
      if (first && last && c.length >= 4) {
        const gap = metres(first, last);
        if (gap <= MAX_TRACK_GAP_M) {
          repairs.push(
            `the line ends where it starts (${gap.toFixed(0)} m apart): taken as the area it encloses`,
          );
          return [[c]];
        }
      }
      throw new Refused(
        `a line where an area is needed (its ends are not within ${MAX_TRACK_GAP_M} m of each other)`,
      );
    }
    case 'MultiLineString':
      if (g.coordinates.length === 1)
        return polygonsOf({ type: 'LineString', coordinates: g.coordinates[0]! }, repairs);
      throw new Refused('several lines where an area is needed');
    case 'GeometryCollection':
      return g.geometries.flatMap((m) => polygonsOf(m, repairs));
  }
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

export function checkArea(geometry: Geometry | null): AreaResult {
  const repairs: string[] = [];
  try {
    if (!geometry) throw new Refused('no geometry');
    const n = positionCount(geometry);
    if (n > LIMITS.maxGeometryVertices)
      throw new Refused(
        `${n} positions: the service takes at most ${LIMITS.maxGeometryVertices} in one geometry`,
      );
    let polys = polygonsOf(geometry, repairs);
    // Heights are noted before a split at the antimeridian (its parts are 2D).
    const had3d = polys.some((p) => p.some((r) => r.some((q) => q.length > 2)));
    const crossing = polys.filter(crossesAntimeridian).length;
    if (crossing > 0) {
      polys = polys.flatMap((p) => {
        if (!crossesAntimeridian(p)) return [p];
        const parts = splitAtAntimeridian(p);
        if (!parts) throw new Refused('a ring goes around a pole (its longitudes wrap 360°)');
        return parts;
      });
      repairs.push(`split ${plural(crossing, 'polygon')} at the antimeridian (±180°)`);
    }
    if (polys.length === 0) throw new Refused('no polygon in the geometry');
    if (polys.length > LIMITS.maxGeometryParts)
      throw new Refused(
        `${polys.length} polygons: the service takes at most ${LIMITS.maxGeometryParts} parts`,
      );
    const t: Tally = { repeated: 0, closed: 0, turned: 0, dropped3d: had3d };
    const cleaned = polys.map((rings, p) => {
      if (rings.length === 0) throw new Refused(`polygon ${p + 1} has no ring`);
      if (rings.length - 1 > LIMITS.maxPolygonHoles)
        throw new Refused(
          `polygon ${p + 1} has ${rings.length - 1} holes: the service takes at most ${LIMITS.maxPolygonHoles}`,
        );
      const out = rings.map((r, k) => {
        try {
          return cleanRing(r, k === 0, t);
        } catch (e) {
          if (e instanceof Refused) throw new Refused(`${where(polys.length, p, k)}: ${e.message}`);
          throw e;
        }
      });
      return out;
    });
    if (t.repeated) repairs.push(`removed ${plural(t.repeated, 'repeated position')}`);
    if (t.closed) repairs.push(`closed ${plural(t.closed, 'open ring')}`);
    if (t.turned) repairs.push(`turned ${plural(t.turned, 'ring')} to RFC 7946 orientation`);
    if (t.dropped3d) repairs.push('dropped the third coordinate (height)');
    const area: Geometry =
      cleaned.length === 1 && geometry.type !== 'MultiPolygon'
        ? { type: 'Polygon', coordinates: cleaned[0]! }
        : { type: 'MultiPolygon', coordinates: cleaned };
    // The service's own rule (self-intersections, degenerate rings, caps): refused here, not there.
    const checked = AreaGeometryInput.safeParse(area);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      // Its path is ['coordinates', ring] or ['coordinates', polygon, ring].
      const at = issue.path.slice(1).map(Number);
      const place =
        at.length === 2
          ? where(cleaned.length, at[0]!, at[1]!)
          : at.length === 1
            ? where(1, 0, at[0]!)
            : '';
      throw new Refused(place ? `${place}: ${issue.message}` : issue.message);
    }
    return { area, repairs, problem: null };
  } catch (e) {
    if (e instanceof Refused) return { area: null, repairs, problem: e.message };
    throw e;
  }
}

function where(polygons: number, p: number, ring: number): string {
  const r = ring === 0 ? 'outer ring' : `hole ${ring}`;
  return polygons > 1 ? `polygon ${p + 1}, ${r}` : r;
}

/**
 * Rings in RFC 7946 orientation, silently: for formats whose own convention is the other one
 * (a Shapefile's outer rings are clockwise), turning them is reading the format, not a repair.
 */
export function orientRfc7946(g: Geometry): Geometry {
  const ring = (r: Position[], k: number) =>
    signedArea(r) > 0 === (k === 0) ? r : [...r].reverse();
  if (g.type === 'Polygon') return { type: 'Polygon', coordinates: g.coordinates.map(ring) };
  if (g.type === 'MultiPolygon')
    return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map(ring)) };
  return g;
}

/** Areas joined in one MultiPolygon (`--merge`): parts side by side, not a geometric union. */
export function mergeAreas(areas: readonly Geometry[]): Geometry {
  const coordinates = areas.flatMap((a) =>
    a.type === 'Polygon' ? [a.coordinates] : a.type === 'MultiPolygon' ? a.coordinates : [],
  );
  return { type: 'MultiPolygon', coordinates };
}
