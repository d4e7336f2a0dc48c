/**
 * Polygons across the antimeridian, split at ±180° into the parts RFC 7946 (3.1.9) asks for.
 * Google Earth and many tools write such an area as one ring whose edge jumps from 179.5° to
 * -179.6° (or with longitudes past 180°); read as it is, that ring would wrap the whole globe
 * the other way. An edge spanning more than 180° of longitude is taken the short way round,
 * which is how Google Earth draws it: the only reading a field area can have.
 *
 * Each ring is unwrapped (longitudes made continuous), cut along the 180° meridian
 * (Sutherland–Hodgman against each half-plane) and the eastern part moved back by 360°.
 * Vertices keep their original longitudes (brought within ±180°); only the cut points are new
 * (exactly ±180).
 */
import type { Position } from '@eo/domain';

type Ring = Position[];
/** An unwrapped position: x continuous across the cut, y, and the longitude as given. */
type U = [x: number, y: number, lon: number];

export function crossesAntimeridian(rings: readonly Ring[]): boolean {
  for (const r of rings)
    for (let i = 0; i < r.length; i++) {
      const x = r[i]![0]!;
      if (x > 180 || x < -180) return Math.abs(x) <= 540;
      if (i > 0 && Math.abs(x - r[i - 1]![0]!) > 180) return true;
    }
  return false;
}

function unwrap(open: Ring): U[] | null {
  const first = open[0];
  const last = open[open.length - 1];
  const closed = first && last && (first[0] !== last[0] || first[1] !== last[1]);
  const ring = closed ? [...open, first] : open;
  const out: U[] = [];
  let offset = 0;
  for (let i = 0; i < ring.length; i++) {
    const [lon, lat] = ring[i] as [number, number];
    if (i > 0) {
      const d = lon - ring[i - 1]![0]!;
      if (d > 180) offset -= 360;
      else if (d < -180) offset += 360;
    }
    // What the vertex is written as in the output: its longitude within [-180, 180].
    out.push([lon + offset, lat, lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon]);
  }
  // A ring that comes back 360° away from where it started goes around a pole: no cut helps.
  return offset === 0 ? out : null;
}

/** The ring shifted by a multiple of 360° so that it lies around `centre` (cuts at +180). */
function near(ring: U[], centre: number): U[] {
  const k = Math.round((centre - ring[0]![0]) / 360);
  return k === 0 ? ring : ring.map(([x, y, lon]) => [x + 360 * k, y, lon]);
}

function clip(ring: readonly U[], west: boolean): Position[] {
  const inside = (p: U) => (west ? p[0] <= 180 : p[0] >= 180);
  const out: Position[] = [];
  const push = (p: Position) => {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  };
  const cut = west ? 180 : -180;
  for (let i = 0; i + 1 < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    // A vertex on the cut line is the cut point itself, spelled as that side spells it.
    if (inside(a)) push(a[0] === 180 ? [cut, a[1]] : [a[2], a[1]]);
    if (inside(a) !== inside(b) && a[0] !== 180 && b[0] !== 180) {
      const t = (180 - a[0]) / (b[0] - a[0]);
      push([cut, a[1] + t * (b[1] - a[1])]);
    }
  }
  if (out.length > 0) push(out[0]!);
  return out.length >= 4 ? out : [];
}

/**
 * The parts of a polygon on either side of the antimeridian (outer ring first in each, holes
 * kept on the side they fall), or null when a ring goes around a pole.
 */
export function splitAtAntimeridian(rings: readonly Ring[]): Ring[][] | null {
  const unwrapped = rings.map(unwrap);
  if (unwrapped.some((r) => r === null)) return null;
  let outer = unwrapped[0] as U[];
  // Cut at +180: an outer ring that reaches past -180 is moved east by 360° first.
  if (outer.some((p) => p[0] < -180)) outer = outer.map(([x, y, lon]) => [x + 360, y, lon]);
  const all = [outer, ...(unwrapped.slice(1) as U[][]).map((h) => near(h, outer[0]![0]))];
  const parts: Ring[][] = [];
  for (const west of [true, false]) {
    const [o, ...holes] = all.map((r) => clip(r, west));
    if (o && o.length > 0) parts.push([o, ...holes.filter((h) => h.length > 0)]);
  }
  return parts;
}
