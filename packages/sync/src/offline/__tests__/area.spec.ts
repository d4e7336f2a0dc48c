/**
 * The area of a site from a field file: read in the importer's thread (@eo/formats), several
 * areas taken together, a file with something other than areas refused with its reason.
 */
import { describe, expect, it } from 'vitest';
import { AreaError, areaAround, areaFromFile } from '../area';

const square = (x: number, y: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, y],
      [x + 0.01, y],
      [x + 0.01, y + 0.01],
      [x, y + 0.01],
      [x, y],
    ],
  ],
});

function geojson(geometries: object[]): Uint8Array {
  const features = geometries.map((geometry, i) => ({
    type: 'Feature',
    properties: { name: `f${i}` },
    geometry,
  }));
  return new TextEncoder().encode(JSON.stringify({ type: 'FeatureCollection', features }));
}

describe('areaFromFile', () => {
  it('takes every area of the file together, labelled with its name', async () => {
    const one = await areaFromFile('site.geojson', geojson([square(11, 44)]));
    expect(one).toMatchObject({ label: 'site.geojson', geometry: { type: 'Polygon' } });
    const two = await areaFromFile('sites.geojson', geojson([square(11, 44), square(11.5, 44)]));
    expect(two.geometry.type).toBe('MultiPolygon');
    expect(two.geometry.coordinates).toHaveLength(2);
  }, 150_000);

  it('refuses a file with a point, and a file that is not one it reads, as AreaErrors', async () => {
    const point = { type: 'Point', coordinates: [11, 44] };
    await expect(areaFromFile('mixed.geojson', geojson([square(11, 44), point]))).rejects.toThrow(
      /feature 2 \(f1\) is not an area/,
    );
    const broken = areaFromFile('broken.geojson', new TextEncoder().encode('{"type": "Feat'));
    await expect(broken).rejects.toBeInstanceOf(AreaError);
  }, 150_000);
});

describe('areaAround', () => {
  it('is a closed 64-sided ring about the radius from the centre, and refuses a region', () => {
    const { geometry, label } = areaAround(11.3, 44.5, 1000);
    expect(label).toBe('1000 m around 11.30000, 44.50000');
    const ring = (geometry.coordinates as number[][][])[0]!;
    expect(ring).toHaveLength(65);
    expect(ring[64]).toEqual(ring[0]);
    const eastM = (ring[0]![0]! - 11.3) * 111_320 * Math.cos((44.5 * Math.PI) / 180);
    expect(eastM).toBeGreaterThan(990);
    expect(eastM).toBeLessThan(1010);
    expect(() => areaAround(11.3, 44.5, 60_000)).toThrow(AreaError);
  });
});
