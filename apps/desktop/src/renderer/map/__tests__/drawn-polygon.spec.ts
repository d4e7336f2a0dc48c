import L from 'leaflet';
import { describe, expect, it } from 'vitest';
import { polygonOfLayer, wrapLon } from '../drawn-polygon';

describe('polygonOfLayer', () => {
  it('closes the ring and keeps in-range longitudes exactly', () => {
    const p = polygonOfLayer(
      L.polygon([
        [45, 5.2],
        [45, 5.3],
        [45.1, 5.3],
      ]),
    );
    expect(p).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [5.2, 45],
          [5.3, 45],
          [5.3, 45.1],
          [5.2, 45],
        ],
      ],
    });
  });

  it('wraps a world copy back into -180..180 and refuses what is not a polygon', () => {
    expect(wrapLon(190)).toBeCloseTo(-170, 9);
    expect(wrapLon(-540)).toBeCloseTo(-180, 9);
    expect(polygonOfLayer(L.marker([0, 0]))).toBeNull();
  });
});
