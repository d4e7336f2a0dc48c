/**
 * Is there land at (lon, lat)? A raster of Natural Earth's 1:110m land polygons (the
 * `world-atlas` package, bundled, so this works offline), built once per process by scanline
 * filling at 0.1° and then read in O(1). 1:110m is coarse (small islands are missing, coasts
 * are smoothed to ~10 km), which is right for placing plausible demo scenes, not for analysis.
 */
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';

const CELLS_PER_DEGREE = 10;
const WIDTH = 360 * CELLS_PER_DEGREE;
const HEIGHT = 180 * CELLS_PER_DEGREE;

let mask: Uint8Array | undefined;

function landRings(): number[][][] {
  const require = createRequire(import.meta.url);
  const topology = require('world-atlas/land-110m.json') as Parameters<typeof feature>[0];
  const land = feature(topology, topology.objects.land!) as unknown as {
    features: Array<{ geometry: { type: string; coordinates: unknown } }>;
  };
  const rings: number[][][] = [];
  for (const f of land.features) {
    const g = f.geometry;
    if (g.type === 'Polygon') rings.push(...(g.coordinates as number[][][]));
    else if (g.type === 'MultiPolygon')
      for (const p of g.coordinates as number[][][][]) rings.push(...p);
  }
  return rings;
}

/** Even-odd scanline fill of every ring (holes included) at each row's centre latitude. */
function buildMask(): Uint8Array {
  const out = new Uint8Array(WIDTH * HEIGHT);
  const edges: number[] = []; // x0, y0, x1, y1 per edge
  for (const ring of landRings()) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const a = ring[i]!;
      const b = ring[i + 1]!;
      edges.push(a[0]!, a[1]!, b[0]!, b[1]!);
    }
  }
  const crossings: number[] = [];
  for (let row = 0; row < HEIGHT; row++) {
    const lat = 90 - (row + 0.5) / CELLS_PER_DEGREE;
    crossings.length = 0;
    for (let e = 0; e < edges.length; e += 4) {
      const y0 = edges[e + 1]!;
      const y1 = edges[e + 3]!;
      if (y0 > lat === y1 > lat) continue;
      const x0 = edges[e]!;
      const x1 = edges[e + 2]!;
      crossings.push(x0 + ((lat - y0) / (y1 - y0)) * (x1 - x0));
    }
    crossings.sort((a, b) => a - b);
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const c0 = Math.max(0, Math.ceil((crossings[i]! + 180) * CELLS_PER_DEGREE - 0.5));
      const c1 = Math.min(
        WIDTH - 1,
        Math.floor((crossings[i + 1]! + 180) * CELLS_PER_DEGREE - 0.5),
      );
      for (let c = c0; c <= c1; c++) out[row * WIDTH + c] = 1;
    }
  }
  return out;
}

/** True when the 0.1° cell holding (lon, lat) is land. Longitudes wrap. */
export function isLand(lon: number, lat: number): boolean {
  mask ??= buildMask();
  const x = ((((lon + 180) % 360) + 360) % 360) * CELLS_PER_DEGREE;
  const col = Math.min(WIDTH - 1, Math.floor(x));
  const row = Math.min(HEIGHT - 1, Math.max(0, Math.floor((90 - lat) * CELLS_PER_DEGREE)));
  return mask[row * WIDTH + col] === 1;
}
