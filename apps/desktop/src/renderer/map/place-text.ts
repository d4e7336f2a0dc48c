/**
 * The packed text of a place tier, as the build writes it (`apps/desktop/vite/basemap-pipeline.ts`
 * `placeTiers`), read into arrays. Apart from `places.ts` so the build's tests read it too.
 */
import { mercX, mercY } from './mercator';

/** Places of one or more tiers, largest first within each tier, projected once. */
export interface Places {
  readonly names: readonly string[];
  readonly countries: readonly string[];
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  /** World units (mercator.ts), for drawing. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly population: Uint32Array;
}

/** Read a tier's packed text: lines of `name \t country \t lon \t lat \t population`. */
export function parsePlaces(text: string): Places {
  const lines = text.length ? text.split('\n') : [];
  const n = lines.length;
  const names: string[] = new Array<string>(n);
  const countries: string[] = new Array<string>(n);
  const lon = new Float64Array(n);
  const lat = new Float64Array(n);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const population = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const [name = '', country = '', lo = '0', la = '0', pop = '0'] = lines[i]!.split('\t');
    names[i] = name;
    countries[i] = country;
    lon[i] = Number(lo);
    lat[i] = Number(la);
    x[i] = mercX(lon[i]!);
    y[i] = mercY(lat[i]!);
    population[i] = Number(pop);
  }
  return { names, countries, lon, lat, x, y, population };
}
