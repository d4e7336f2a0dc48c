/**
 * Footprints packed into typed arrays, projected once: the footprint layer, the hit-test index
 * and the draw loop all read these arrays, so 50,000 footprints cost a few MB and no per-scene
 * objects (no LatLng, no Leaflet layer, no GeoJSON feature).
 */
import type { FootprintSet } from '../../shared/contract';
import { mercX, mercY } from './mercator';

/** Footprint index of an id: a Map, or the catalog store's positions (mapped on first lookup). */
export interface IdLookup {
  get(id: string): number | undefined;
  has(id: string): boolean;
  readonly size: number;
}

export interface PackedFootprints {
  readonly count: number;
  readonly ids: readonly string[];
  /** Footprint index of an id. */
  readonly indexOf: IdLookup;
  /** Point offsets: footprint i owns points offsets[i] .. offsets[i+1]-1. */
  readonly offsets: Uint32Array;
  /**
   * Projected points, x then y per point, in world units (see mercator.ts): a footprint's are
   * written the first time they are asked for (`ringPoints`). Most footprints of a large set
   * are never traced (at the view that shows them all they are specks, drawn from their box):
   * projecting every point as 100,000 footprints arrived took ~65 ms of the first screen.
   */
  readonly points: Float64Array;
  /** Projected bounding box per footprint: minX, minY, maxX, maxY (all worked out at once). */
  readonly boxes: Float64Array;
  /** Projected area per footprint (world units squared), NaN until its ring is projected. */
  readonly areas: Float64Array;
  /** The lon, lat pairs the points are projected from, and where each ring starts in them. */
  readonly coords: ArrayLike<number>;
  readonly coordsOffsets: ArrayLike<number>;
  /** 1 where footprint i's points are projected. */
  readonly projected: Uint8Array;
}

/** Ids, point offsets and lon, lat pairs: the decoded answer, or rings laid out alike. */
export type FootprintRings = Pick<FootprintSet, 'ids' | 'offsets'> & {
  readonly coords: ArrayLike<number>;
};

/** One exterior ring per id as flat `[lon, lat, ...]` lists (tests, the benchmark page). */
export function packFootprints(
  ids: readonly string[],
  rings: ReadonlyArray<ArrayLike<number>>,
): PackedFootprints {
  const count = Math.min(ids.length, rings.length);
  const offsets = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) {
    offsets[i + 1] = offsets[i]! + Math.floor((rings[i]?.length ?? 0) / 2);
  }
  const coords = new Float64Array(offsets[count]! * 2);
  for (let i = 0; i < count; i++) {
    const ring = rings[i] ?? [];
    for (let k = 0; k < (offsets[i + 1]! - offsets[i]!) * 2; k++) {
      coords[offsets[i]! * 2 + k] = ring[k] as number;
    }
  }
  return packFootprintSet({ ids: ids.slice(0, count), offsets, coords });
}

/**
 * One exterior ring per id (the backend's decoded answer: point offsets into lon, lat pairs).
 * A ring crossing the antimeridian is unwrapped (each longitude moved by 360 degrees to stay
 * within 180 of the previous one), so its box may reach past the world's edge; hit tests look
 * at both copies.
 */
export function packFootprintSet(
  set: FootprintRings,
  /**
   * Each id's index, when the caller built it already from these ids (the catalog store's
   * positions): 100,000 ids took ~30 ms to map a second time.
   */
  known?: IdLookup,
): PackedFootprints {
  const { ids, coords } = set;
  const count = Math.min(ids.length, set.offsets.length - 1);
  const total = count > 0 ? (set.offsets[count] as number) : 0;
  const offsets = new Uint32Array(count + 1);
  const boxes = new Float64Array(count * 4);
  // A map of other ids (a caller's slip) would mislead every hit test: sized right or built here.
  const given = known?.size === count ? known : undefined;
  const built = given ? null : new Map<string, number>();
  let p = 0;
  for (let i = 0; i < count; i++) {
    const from = set.offsets[i] as number;
    const n = (set.offsets[i + 1] as number) - from;
    offsets[i] = p;
    built?.set(ids[i] as string, i);
    // The box from the ring's extreme longitudes and latitudes: Mercator keeps their order
    // (x grows with longitude, y falls with latitude), so two projected corners are the box.
    let west = Infinity;
    let east = -Infinity;
    let south = Infinity;
    let north = -Infinity;
    let prevLon = NaN;
    for (let k = 0; k < n; k++) {
      const lon = unwrapped(coords[(from + k) * 2] as number, prevLon);
      const lat = coords[(from + k) * 2 + 1] as number;
      prevLon = lon;
      if (lon < west) west = lon;
      if (lon > east) east = lon;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
    if (n === 0) {
      boxes.fill(NaN, i * 4, i * 4 + 4);
    } else {
      boxes[i * 4] = mercX(west);
      boxes[i * 4 + 1] = mercY(north);
      boxes[i * 4 + 2] = mercX(east);
      boxes[i * 4 + 3] = mercY(south);
    }
    p += n;
  }
  offsets[count] = p;
  const indexOf: IdLookup = given ?? (built as Map<string, number>);
  return {
    count,
    ids: ids.slice(0, count),
    indexOf,
    offsets,
    points: new Float64Array(total * 2),
    boxes,
    areas: new Float64Array(count).fill(NaN),
    coords,
    coordsOffsets: set.offsets,
    projected: new Uint8Array(count),
  };
}

/**
 * A ring's longitude moved by whole turns to stay within 180 degrees of the ring's previous
 * one, so a ring crossing the antimeridian stays one piece (a ring's first: `prevLon` NaN, kept).
 */
function unwrapped(lon: number, prevLon: number): number {
  let l = lon;
  while (l - prevLon > 180) l -= 360;
  while (prevLon - l > 180) l += 360;
  return l;
}

/**
 * Footprint i's projected points, `fp.points` from `fp.offsets[i]` to `fp.offsets[i + 1]`,
 * projected on first use (with its area, and wound the same way as every other ring: the layer
 * fills all footprints as one path with the nonzero rule, where opposite windings would cancel
 * and leave overlaps unfilled). Returns `fp.points`.
 */
export function ringPoints(fp: PackedFootprints, i: number): Float64Array {
  if (fp.projected[i] === 1) return fp.points;
  const from = fp.offsets[i] as number;
  const to = fp.offsets[i + 1] as number;
  const { points, coords } = fp;
  const shift = (fp.coordsOffsets[i] as number) - from;
  let prevLon = NaN;
  for (let k = from; k < to; k++) {
    const lon = unwrapped(coords[(k + shift) * 2] as number, prevLon);
    prevLon = lon;
    points[k * 2] = mercX(lon);
    points[k * 2 + 1] = mercY(coords[(k + shift) * 2 + 1] as number);
  }
  const signed = signedArea(points, from, to);
  if (signed < 0) reversePoints(points, from, to);
  fp.areas[i] = Math.abs(signed);
  fp.projected[i] = 1;
  return points;
}

/** Shoelace area of points[from..to); positive when clockwise on screen (y grows down). */
function signedArea(points: Float64Array, from: number, to: number): number {
  let sum = 0;
  for (let k = from; k < to; k++) {
    const j = k + 1 < to ? k + 1 : from;
    sum +=
      (points[k * 2] as number) * (points[j * 2 + 1] as number) -
      (points[j * 2] as number) * (points[k * 2 + 1] as number);
  }
  return sum / 2;
}

function reversePoints(points: Float64Array, from: number, to: number): void {
  for (let a = from, b = to - 1; a < b; a++, b--) {
    const ax = points[a * 2] as number;
    const ay = points[a * 2 + 1] as number;
    points[a * 2] = points[b * 2] as number;
    points[a * 2 + 1] = points[b * 2 + 1] as number;
    points[b * 2] = ax;
    points[b * 2 + 1] = ay;
  }
}

/** Ray casting: is (x, y) inside footprint i's ring? Points on an edge count either way. */
export function footprintContains(fp: PackedFootprints, i: number, x: number, y: number): boolean {
  const from = fp.offsets[i] as number;
  const to = fp.offsets[i + 1] as number;
  const pts = ringPoints(fp, i);
  let inside = false;
  for (let k = from, j = to - 1; k < to; j = k++) {
    const xk = pts[k * 2] as number;
    const yk = pts[k * 2 + 1] as number;
    const xj = pts[j * 2] as number;
    const yj = pts[j * 2 + 1] as number;
    if (yk > y !== yj > y && x < ((xj - xk) * (y - yk)) / (yj - yk) + xk) inside = !inside;
  }
  return inside;
}
