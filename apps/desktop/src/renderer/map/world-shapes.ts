/**
 * The offline basemap's shapes: land polygons and country borders from Natural Earth
 * (world-atlas TopoJSON), projected once into flat typed arrays like the footprints.
 */
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { feature, mesh } from 'topojson-client';
import { mercX, mercY } from './mercator';

/** A TopoJSON topology, as topojson-client's functions take it. */
export type Topology = Parameters<typeof feature>[0];
type TopoObject = Parameters<typeof mesh>[1];

/** Rings or lines in world units: item i owns points offsets[i] .. offsets[i+1]-1. */
export interface ProjectedLines {
  readonly offsets: Uint32Array;
  readonly points: Float64Array;
  /** Box of item i in world units: x0, y0, x1, y1 at i*4 (draws skip items out of view). */
  readonly boxes: Float64Array;
}

export interface WorldShapes {
  /** Land polygon rings (exterior and holes; fill with the even-odd rule). */
  readonly land: ProjectedLines;
  /** Borders between countries (each shared border once). */
  readonly borders: ProjectedLines;
}

type Position = readonly number[];

/** Flat [lon, lat, lon, lat, ...] arrays (the build's water data) as positions. */
export function flatToLines(flat: ReadonlyArray<ReadonlyArray<number>>): Position[][] {
  return flat.map((f) => {
    const out: Position[] = [];
    for (let k = 0; k + 1 < f.length; k += 2) out.push([f[k]!, f[k + 1]!]);
    return out;
  });
}

export function projectLines(lines: ReadonlyArray<ReadonlyArray<Position>>): ProjectedLines {
  let total = 0;
  for (const l of lines) total += l.length;
  const offsets = new Uint32Array(lines.length + 1);
  const points = new Float64Array(total * 2);
  const boxes = new Float64Array(lines.length * 4);
  let p = 0;
  lines.forEach((line, i) => {
    offsets[i] = p;
    let prev = NaN;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const pos of line) {
      // Natural Earth rings cross the antimeridian (Russia, Fiji, Antarctica): unwrap them so
      // an edge never spans the whole world; the copy drawn one world over shows the rest.
      let lon = pos[0] ?? 0;
      if (!Number.isNaN(prev)) {
        while (lon - prev > 180) lon -= 360;
        while (prev - lon > 180) lon += 360;
      }
      prev = lon;
      const x = mercX(lon);
      const y = mercY(pos[1] ?? 0);
      points[p * 2] = x;
      points[p * 2 + 1] = y;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      p++;
    }
    boxes.set([x0, y0, x1, y1], i * 4);
  });
  offsets[lines.length] = p;
  return { offsets, points, boxes };
}

/** A world-atlas topology with `land` and `countries` objects (countries-110m.json, -50m). */
export function worldShapes(topology: Topology): WorldShapes {
  const landObject = topology.objects['land'] as TopoObject | undefined;
  const countries = topology.objects['countries'] as TopoObject | undefined;
  const rings: Position[][] = [];
  if (landObject) {
    // A GeometryCollection object: feature() returns a FeatureCollection for it.
    const land = feature(topology, landObject) as unknown as FeatureCollection<
      Polygon | MultiPolygon
    >;
    for (const f of land.features) {
      const g = f.geometry;
      if (g.type === 'Polygon') rings.push(...g.coordinates);
      else if (g.type === 'MultiPolygon') for (const poly of g.coordinates) rings.push(...poly);
    }
  }
  const lines: Position[][] = [];
  if (countries) {
    const borders = mesh(topology, countries, (a, b) => a !== b);
    lines.push(...borders.coordinates);
  }
  return { land: projectLines(rings), borders: projectLines(lines) };
}
