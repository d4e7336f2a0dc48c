import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { unpackLines, type PackedLines } from '../../src/renderer/map/packed-lines';
import { worldShapes } from '../../src/renderer/map/world-shapes';
import { basemapData } from '../basemap-data';
import type { Topology } from '../basemap-pipeline';

/** The plugin's hooks, called as Vite calls them (plain functions here). */
function plugin() {
  const p = basemapData();
  const resolveId = p.resolveId as (id: string) => string | null;
  const load = p.load as (id: string) => string | null;
  return { resolveId, load };
}

describe('the basemap data plugin', () => {
  it('resolves its virtual modules and leaves every other id alone', () => {
    const { resolveId } = plugin();
    expect(resolveId('virtual:eo-basemap/places-0')).toBe('\0virtual:eo-basemap/places-0');
    expect(resolveId('leaflet')).toBeNull();
  });

  it('serves the 1:10m land as JSON.parse of one string (smaller than an object literal)', () => {
    const { load } = plugin();
    const code = load('\0virtual:eo-basemap/land-10m')!;
    expect(code.startsWith('export default JSON.parse("')).toBe(true);
    const json = JSON.parse(code.slice('export default JSON.parse('.length, -2)) as string;
    const topology = JSON.parse(json) as { objects: Record<string, unknown> };
    expect(Object.keys(topology.objects).sort()).toEqual(['countries', 'land']);
  });

  it("serves the world view's land and borders packed, exactly as the renderer would make them", () => {
    const { load } = plugin();
    const code = load('\0virtual:eo-basemap/shapes-110m')!;
    expect(code.startsWith('export default {')).toBe(true);
    const packed = JSON.parse(code.slice('export default '.length, -1)) as {
      land: PackedLines;
      borders: PackedLines;
    };
    const topology = createRequire(import.meta.url)('world-atlas/countries-110m.json') as Topology;
    const made = worldShapes(topology);
    expect(unpackLines(packed.land)).toEqual(made.land);
    expect(unpackLines(packed.borders)).toEqual(made.borders);
    expect(made.land.offsets.length).toBeGreaterThan(100);
  });

  it('serves water and place tiers, and refuses a name it does not have', () => {
    const { load } = plugin();
    const water = JSON.parse(
      load('\0virtual:eo-basemap/water-110m')!.slice('export default '.length, -1),
    ) as { lakes: PackedLines; rivers: PackedLines };
    expect(unpackLines(water.lakes).offsets.length).toBeGreaterThan(10);
    expect(unpackLines(water.rivers).offsets.length).toBeGreaterThan(10);
    expect(load('\0virtual:eo-basemap/places-0')).toMatch(/^export default "/);
    expect(() => load('\0virtual:eo-basemap/places-7')).toThrow(/no such basemap data/);
    expect(load('/some/file.ts')).toBeNull();
  });
});
