/**
 * Scene footprints: a rectangle oriented along the ground track, as a GeoJSON Polygon with a
 * counter-clockwise ring (RFC 7946), or a MultiPolygon of two parts when it crosses the
 * antimeridian (RFC 7946 §3.1.9: split, never wrap), with the matching bbox (west > east when
 * split, as RFC 7946 §5.2 asks).
 */
import type { MultiPolygon, Polygon } from '@eo/domain';
import { destination, type LonLat } from './orbit';

/** Corners (unwrapped longitudes) of a length x width rectangle centred on `c`, long side along `heading`. */
export function rectangleCorners(
  c: LonLat,
  headingDeg: number,
  lengthKm: number,
  widthKm: number,
): LonLat[] {
  const front = destination(c, headingDeg, lengthKm / 2);
  const back = destination(c, headingDeg + 180, lengthKm / 2);
  const corners = [
    destination(front, headingDeg + 90, widthKm / 2),
    destination(front, headingDeg - 90, widthKm / 2),
    destination(back, headingDeg - 90, widthKm / 2),
    destination(back, headingDeg + 90, widthKm / 2),
  ];
  // destination() keeps longitudes continuous around its start; keep them continuous around c.
  for (const p of corners) p.lon -= 360 * Math.round((p.lon - c.lon) / 360);
  return corners;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

function signedArea(ring: readonly LonLat[]): number {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    s += a.lon * b.lat - b.lon * a.lat;
  }
  return s / 2;
}

/** Sutherland-Hodgman clip of a convex ring to lon <= x (keep = 'west') or lon >= x ('east'). */
function clipLon(ring: readonly LonLat[], x: number, keep: 'west' | 'east'): LonLat[] {
  const inside = (p: LonLat) => (keep === 'west' ? p.lon <= x : p.lon >= x);
  const out: LonLat[] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    if (inside(a)) out.push(a);
    if (inside(a) !== inside(b)) {
      const t = (x - a.lon) / (b.lon - a.lon);
      out.push({ lon: x, lat: a.lat + t * (b.lat - a.lat) });
    }
  }
  return out;
}

function closedRing(ring: readonly LonLat[], shift: number): number[][] {
  const coords = ring.map((p) => [round6(p.lon + shift), round6(p.lat)]);
  coords.push([coords[0]![0]!, coords[0]![1]!]);
  return coords;
}

export interface Footprint {
  readonly geometry: Polygon | MultiPolygon;
  /** [west, south, east, north]; west > east when the footprint crosses the antimeridian. */
  readonly bbox: [number, number, number, number];
}

export function footprint(corners: readonly LonLat[]): Footprint {
  const ring = signedArea(corners) < 0 ? [...corners].reverse() : [...corners];
  const south = round6(Math.min(...ring.map((p) => p.lat)));
  const north = round6(Math.max(...ring.map((p) => p.lat)));
  const west = Math.min(...ring.map((p) => p.lon));
  const east = Math.max(...ring.map((p) => p.lon));
  if (west >= -180 && east <= 180) {
    return {
      geometry: { type: 'Polygon', coordinates: [closedRing(ring, 0)] },
      bbox: [round6(west), south, round6(east), north],
    };
  }
  // Crossing: the part beyond ±180 moves to the other side.
  const edge = east > 180 ? 180 : -180;
  const shift = east > 180 ? -360 : 360;
  const near = clipLon(ring, edge, east > 180 ? 'west' : 'east');
  const far = clipLon(ring, edge, east > 180 ? 'east' : 'west');
  const parts = [closedRing(near, 0), closedRing(far, shift)].filter((r) => r.length >= 4);
  if (parts.length === 1) {
    // Only touches the antimeridian: one part, an ordinary box.
    const xs = parts[0]!.map((p) => p[0]!);
    return {
      geometry: { type: 'Polygon', coordinates: parts },
      bbox: [Math.min(...xs), south, Math.max(...xs), north],
    };
  }
  return {
    geometry: { type: 'MultiPolygon', coordinates: parts.map((r) => [r]) },
    bbox:
      east > 180
        ? [round6(west), south, round6(east - 360), north]
        : [round6(west + 360), south, round6(east), north],
  };
}
