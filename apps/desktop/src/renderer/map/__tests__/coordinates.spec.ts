import { describe, expect, it } from 'vitest';
import { formatLatLon, parseCoordinates } from '../coordinates';

function at(text: string) {
  const r = parseCoordinates(text);
  if (!r.ok) throw new Error(`${text}: ${r.error}`);
  return r.at;
}

function error(text: string): string {
  const r = parseCoordinates(text);
  if (r.ok) throw new Error(`${text} was read as ${JSON.stringify(r.at)}`);
  return r.error;
}

describe('parseCoordinates', () => {
  it('reads decimal degrees, latitude first', () => {
    expect(at('44.05, -123.09')).toEqual({ lat: 44.05, lon: -123.09 });
    expect(at('44.05 -123.09')).toEqual({ lat: 44.05, lon: -123.09 });
    expect(at(' -33.9;18.42 ')).toEqual({ lat: -33.9, lon: 18.42 });
  });

  it('reads hemisphere letters as prefixes or suffixes, in either order', () => {
    expect(at('44.05N 123.09W')).toEqual({ lat: 44.05, lon: -123.09 });
    expect(at('N44.05 W123.09')).toEqual({ lat: 44.05, lon: -123.09 });
    expect(at('123.09W, 44.05N')).toEqual({ lat: 44.05, lon: -123.09 });
    expect(at('59.33 n 18.07 e')).toEqual({ lat: 59.33, lon: 18.07 });
  });

  it('reads degrees, minutes and seconds in the usual spellings', () => {
    const p = at('44°3\'18"N 123°5\'24"W');
    expect(p.lat).toBeCloseTo(44.055, 9);
    expect(p.lon).toBeCloseTo(-123.09, 9);
    expect(at('44° 3′ 18″ N, 123° 5′ 24″ W')).toEqual(p);
    expect(at('44 3 18 N, 123 5 24 W')).toEqual(p);
    expect(at('44 3 18 -123 5 24')).toEqual(p);
    const dm = at("N 44° 3.3' W 123° 5.4'");
    expect(dm.lat).toBeCloseTo(44.055, 9);
    expect(dm.lon).toBeCloseTo(-123.09, 9);
    expect(at("33°55'S 18°25'E").lat).toBeCloseTo(-33.9167, 4);
  });

  it('says what is wrong', () => {
    expect(error('')).toMatch(/latitude and a longitude/);
    expect(error('44.05')).toMatch(/latitude and a longitude/);
    expect(error('95, 10')).toMatch(/latitude must lie between -90 and 90/);
    expect(error('10, 190')).toMatch(/longitude must lie between -180 and 180/);
    expect(error('44N 45N')).toMatch(/same axis/);
    expect(error("44°75'N 123W")).toMatch(/Minutes and seconds/);
    expect(error('-44S 123W')).toMatch(/minus sign or a hemisphere/);
    expect(error('Eugene, Oregon')).toMatch(/not a coordinate|hemisphere/);
  });
});

describe('formatLatLon', () => {
  it('shows decimal degrees, latitude first', () => {
    expect(formatLatLon(44.0551234, -123.0865)).toBe('44.05512, -123.08650');
  });
});
