/**
 * Real-world shaped test features (no files checked in: every test builds its files from
 * these): a parcel with a hole and a non-ASCII name, a farm of two fields (MultiPolygon), an
 * area across the antimeridian (split at ±180 as RFC 7946 asks), a long irregular parcel, and
 * status attributes for styled exports.
 */
import type { Geometry, Position } from '@eo/domain';
import type { ExportFeature } from '../write/feature';

/** A counter-clockwise ring of `n` points on an ellipse (irregular: radii vary by angle). */
export function blob(cx: number, cy: number, r: number, n: number, seed = 1): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const k = r * (1 + 0.15 * Math.sin(3 * a + seed));
    ring.push([round(cx + k * Math.cos(a)), round(cy + 0.7 * k * Math.sin(a))]);
  }
  ring.push(ring[0]!);
  return ring;
}

const round = (v: number) => Math.round(v * 1e9) / 1e9;

/** A clockwise ring (a hole) of a box. */
export function hole(x: number, y: number, d: number): Position[] {
  return [
    [x, y],
    [x, y + d],
    [x + d, y + d],
    [x + d, y],
    [x, y],
  ];
}

export const PARCEL_WITH_HOLE: Geometry = {
  type: 'Polygon',
  coordinates: [blob(16.37, 48.21, 0.01, 24), hole(16.368, 48.209, 0.002)],
};
export const TWO_FIELDS: Geometry = {
  type: 'MultiPolygon',
  coordinates: [[blob(15.1, 47.5, 0.004, 12)], [blob(15.12, 47.51, 0.003, 9, 2)]],
};
export const ACROSS_ANTIMERIDIAN: Geometry = {
  type: 'MultiPolygon',
  coordinates: [
    [
      [
        [179.5, -17],
        [180, -17],
        [180, -16.5],
        [179.5, -16.5],
        [179.5, -17],
      ],
    ],
    [
      [
        [-180, -17],
        [-179.6, -17],
        [-179.6, -16.5],
        [-180, -16.5],
        [-180, -17],
      ],
    ],
  ],
};
export const LONG_PARCEL: Geometry = {
  type: 'Polygon',
  coordinates: [blob(14.3, 46.6, 0.02, 400, 3)],
};

/** Features that can be written in any CRS of central Europe (UTM 33N covers 12°E–18°E). */
export const EUROPEAN: readonly ExportFeature[] = [
  {
    geometry: PARCEL_WITH_HOLE,
    properties: { name: 'Çayır parseli Nº 7 — 東京', status: 'completed', area_ha: 123.5 },
  },
  {
    geometry: TWO_FIELDS,
    properties: { name: 'Hof Müller: zwei Felder', status: 'failed', area_ha: 8 },
  },
  {
    geometry: LONG_PARCEL,
    properties: { name: 'Långa skiftet «Ø»', status: 'pending', area_ha: 0.25 },
  },
];

export const WORLD: readonly ExportFeature[] = [
  ...EUROPEAN,
  {
    geometry: ACROSS_ANTIMERIDIAN,
    properties: { name: 'Taveuni ↔ 180°', status: 'completed', area_ha: 999 },
  },
];

/** Polygons of an area geometry, for comparing. */
export function polygonsOf(g: Geometry | null): Position[][][] {
  if (!g) return [];
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  if (g.type === 'GeometryCollection') return g.geometries.flatMap(polygonsOf);
  return [];
}

/** The largest difference between two areas' positions (Infinity when their shapes differ). */
export function maxDifference(a: Geometry | null, b: Geometry | null): number {
  const pa = polygonsOf(a);
  const pb = polygonsOf(b);
  if (pa.length !== pb.length) return Infinity;
  let worst = 0;
  for (let p = 0; p < pa.length; p++) {
    if (pa[p]!.length !== pb[p]!.length) return Infinity;
    for (let r = 0; r < pa[p]!.length; r++) {
      const ra = pa[p]![r]!;
      const rb = pb[p]![r]!;
      if (ra.length !== rb.length) return Infinity;
      for (let i = 0; i < ra.length; i++)
        worst = Math.max(
          worst,
          Math.abs(ra[i]![0]! - rb[i]![0]!),
          Math.abs(ra[i]![1]! - rb[i]![1]!),
        );
    }
  }
  return worst;
}
