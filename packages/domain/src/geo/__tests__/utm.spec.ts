import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { epsgOfUtm, fromUtm, toUtm, utmEpsg, utmOfEpsg, utmZone } from '../utm';

describe('UTM', () => {
  it('projects like PROJ (gdaltransform figures, to the centimetre)', () => {
    // echo "lon lat" | gdaltransform -s_srs EPSG:4326 -t_srs EPSG:326zz / 327zz
    const cases: [number, number, number, boolean, number, number][] = [
      [15, 45, 33, false, 500_000, 4_982_950.4002],
      [-70.5, -33.4, 19, true, 360_505.6199, 6_303_362.2881],
      [9.1, 60.2, 32, false, 505_544.0659, 6_673_689.2725],
      [20, 80, 34, false, 480_615.1967, 8_881_752.4148],
    ];
    for (const [lon, lat, zone, south, x, y] of cases) {
      const [gx, gy] = toUtm(lon, lat, zone, south);
      expect(gx).toBeCloseTo(x, 2);
      expect(gy).toBeCloseTo(y, 2);
      const [blon, blat] = fromUtm(x, y, zone, south);
      expect(blon).toBeCloseTo(lon, 8);
      expect(blat).toBeCloseTo(lat, 8);
    }
  });

  it('inverts itself to a centimetre anywhere within 3.5 degrees of a central meridian (a zone and its margin)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: -3.5, max: 3.5, noNaN: true }),
        fc.double({ min: -80, max: 84, noNaN: true }),
        (zone, dl, lat) => {
          const lon = zone * 6 - 183 + dl;
          const south = lat < 0;
          const [x, y] = toUtm(lon, lat, zone, south);
          const [lon2, lat2] = fromUtm(x, y, zone, south);
          const [x2, y2] = toUtm(lon2, lat2, zone, south);
          expect(Math.hypot(x2 - x, y2 - y)).toBeLessThan(1e-2);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names zones by EPSG code and back', () => {
    expect(utmZone(15)).toBe(33);
    expect(utmZone(180)).toBe(1);
    expect(utmEpsg(15, 45)).toBe(32633);
    expect(utmEpsg(-70.5, -33.4)).toBe(32719);
    expect(utmOfEpsg(32633)).toEqual({ zone: 33, south: false });
    expect(utmOfEpsg(32760)).toEqual({ zone: 60, south: true });
    for (const bad of [4326, 32600, 32661, 32700, 3857, 32633.5]) expect(utmOfEpsg(bad)).toBeNull();
    expect(epsgOfUtm({ zone: 19, south: true })).toBe(32719);
  });
});
