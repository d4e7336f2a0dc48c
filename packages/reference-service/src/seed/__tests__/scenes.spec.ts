import { ArchiveFeature, geodesicArea, toUtm, type Geometry } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { SATELLITES, satelliteById } from '../../reference/catalog';
const footprintAreaKm2 = (g: Geometry) => geodesicArea(g) / 1e6;
import { footprint, rectangleCorners } from '../geo/footprint';
import { isLand } from '../geo/land-mask';
import { descendingNodeMs, orbitModel, trackHeading, trackPoint } from '../geo/orbit';
import { sunPosition } from '../geo/sun';
import { DEFAULT_WINDOW, generateScenes, windowFor, type GeneratedScene } from '../scenes';

const ARCHIVE_KEYS = [
  'altitude',
  'eo:cloud_cover',
  'gsd',
  'rd:anomalous_pixels',
  'rd:earth_sun_distance',
  'view:off_nadir',
  'view:scene_center_lat',
  'view:scene_center_lon',
  'view:sun_azimuth',
  'view:sun_elevation',
  'constellation',
  'created',
  'datetime',
  'description',
  'license',
  'platform',
  'proj:code',
  'rd:product_level',
  'rd:sat_id',
  'rd:type',
  'sci:doi',
  'startdatetime',
  'title',
  'updated',
  'instruments',
  'proj:shape',
  'proj:transform',
];

const scenes: GeneratedScene[] = [...generateScenes({ count: 400 })];

function ringOf(g: Geometry): number[][] {
  if (g.type !== 'Polygon') throw new Error('expected a polygon');
  return g.coordinates[0]!;
}

function signedArea(ring: number[][]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++)
    s += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!;
  return s / 2;
}

describe('generateScenes', () => {
  it('is deterministic, and a smaller run is a prefix of a larger one', () => {
    const again = [...generateScenes({ count: 400 })];
    expect(JSON.stringify(again)).toBe(JSON.stringify(scenes));
    const first = [...generateScenes({ count: 50 })];
    expect(first.map((s) => s.feature.id)).toEqual(scenes.slice(0, 50).map((s) => s.feature.id));
    const otherSeed = [...generateScenes({ count: 50, seed: 7 })];
    expect(otherSeed.map((s) => s.feature.id)).not.toEqual(first.map((s) => s.feature.id));
  });

  it('keeps the default window, and its scenes, for every count up to 4,000,000', () => {
    expect(windowFor(1)).toEqual(DEFAULT_WINDOW);
    expect(windowFor(4_000_000)).toEqual(DEFAULT_WINDOW);
    // Pinned: the first scene of the default window (its orbit epoch must not move).
    expect(scenes[0]!.feature.id).toBe('AUR1_20250317T060532_L2A_R005_F0089');
    expect(scenes[0]!.feature.properties['sat:absolute_orbit']).toBe(23236);
  });

  it('widens the window by whole years for larger counts, with positive orbits inside it', () => {
    const w = windowFor(10_000_000);
    expect(new Date(w.startMs).toISOString()).toBe('2020-06-01T00:00:00.000Z');
    expect(w.endMs).toBe(DEFAULT_WINDOW.endMs);
    expect(windowFor(4_000_001).startMs).toBe(Date.UTC(2022, 5, 1));
    // The default window of a 10,000,000-scene run (the generator is lazy: its first 3,000).
    const wide: GeneratedScene[] = [];
    for (const scene of generateScenes({ count: 10_000_000, assets: false })) {
      wide.push(scene);
      if (wide.length === 3_000) break;
    }
    const times = wide.map((s) => Date.parse(String(s.feature.properties.datetime)));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(w.startMs);
    expect(Math.max(...times)).toBeLessThanOrEqual(w.endMs);
    // Some fall before the default window (it did widen), none before the orbit count began.
    expect(times.some((t) => t < DEFAULT_WINDOW.startMs)).toBe(true);
    const orbits = wide.map((s) => s.feature.properties['sat:absolute_orbit'] as number);
    expect(Math.min(...orbits)).toBeGreaterThan(0);
  });

  it('gives unique ids like AUR1_20240517T093012_L2A_R042_F0123 matching the datetime', () => {
    const ids = new Set(scenes.map((s) => s.feature.id));
    expect(ids.size).toBe(scenes.length);
    for (const { feature } of scenes) {
      const m = /^(AUR1|AUR2|KES1)_(\d{8})T(\d{6})_(L2A|L1C)_R\d{3}_F\d{4}$/.exec(feature.id);
      expect(m, feature.id).not.toBeNull();
      const dt = String(feature.properties.datetime);
      expect(dt.slice(0, 10).replaceAll('-', '')).toBe(m![2]);
      expect(dt.slice(11, 19).replaceAll(':', '')).toBe(m![3]);
    }
  });

  it('produces valid 2.11 features with every property key, in the default window', () => {
    for (const [i, { feature, satelliteId }] of scenes.entries()) {
      if (i % 8 === 0) expect(ArchiveFeature.safeParse(feature).success).toBe(true);
      for (const k of ARCHIVE_KEYS) expect(feature.properties, k).toHaveProperty([k]);
      const sat = satelliteById(satelliteId)!;
      expect(feature.collection).toBe(sat.collectionId);
      expect(feature.properties.platform).toBe(sat.platform);
      const t = Date.parse(String(feature.properties.datetime));
      expect(t).toBeGreaterThanOrEqual(Date.UTC(2023, 5, 1));
      expect(t).toBeLessThan(Date.UTC(2025, 5, 1));
      expect(Date.parse(String(feature.properties.startdatetime))).toBeLessThan(t);
      expect(Date.parse(String(feature.properties.created))).toBeGreaterThan(t);
      expect(Object.keys(feature.assets ?? {})).toEqual(
        expect.arrayContaining([
          'thumbnail',
          'visual',
          'metadata',
          ...sat.bands.map((b) => b.name),
        ]),
      );
    }
  });

  it('uses every satellite, and puts scene centres on land in daylight', () => {
    expect(new Set(scenes.map((s) => s.satelliteId))).toEqual(new Set(SATELLITES.map((s) => s.id)));
    for (const { feature } of scenes) {
      const p = feature.properties;
      const lon = p['view:scene_center_lon']!;
      const lat = p['view:scene_center_lat']!;
      expect(isLand(lon, lat)).toBe(true);
      // track limit 180 - 97.4° plus at most ~2.6° of off-nadir shift
      expect(Math.abs(lat)).toBeLessThanOrEqual(85.3);
      expect(p['view:sun_elevation']!).toBeGreaterThanOrEqual(10);
      const sun = sunPosition(Date.parse(String(p.datetime)), lon, lat);
      expect(sun.elevation).toBeCloseTo(p['view:sun_elevation']!, 1);
      expect(p['eo:cloud_cover']!).toBeGreaterThanOrEqual(0);
      expect(p['eo:cloud_cover']!).toBeLessThanOrEqual(100);
      expect(p['rd:earth_sun_distance']!).toBeGreaterThan(0.98);
      expect(p['rd:earth_sun_distance']!).toBeLessThan(1.02);
    }
  });

  it('cuts footprints about one swath long and wide, counter-clockwise, with a matching bbox', () => {
    for (const { feature, satelliteId } of scenes) {
      const sat = satelliteById(satelliteId)!;
      const g = feature.geometry as Geometry;
      const offNadir = (feature.properties['view:off_nadir']! * Math.PI) / 180;
      expect(feature.properties['view:off_nadir']!).toBeLessThanOrEqual(30);
      const expected = (sat.swathKm * sat.swathKm) / Math.cos(offNadir) ** 2;
      expect(footprintAreaKm2(g) / expected).toBeGreaterThan(0.97);
      expect(footprintAreaKm2(g) / expected).toBeLessThan(1.03);
      expect(feature.properties.gsd!).toBeGreaterThanOrEqual(sat.gsd);
      if (g.type === 'Polygon') {
        const ring = ringOf(g);
        expect(ring).toHaveLength(5);
        expect(ring[4]).toEqual(ring[0]);
        expect(signedArea(ring)).toBeGreaterThan(0);
        const xs = ring.map((p) => p[0]!);
        const ys = ring.map((p) => p[1]!);
        expect(feature.bbox).toEqual([
          Math.min(...xs),
          Math.min(...ys),
          Math.max(...xs),
          Math.max(...ys),
        ]);
      }
    }
  });
});

describe('orbit model', () => {
  const m = orbitModel({ altitudeKm: 525, epochMs: Date.UTC(2024, 0, 1) });
  it('is sun-synchronous at ~97.5° with ~15 orbits a day on a 16-day repeat', () => {
    expect(m.inclinationDeg).toBeGreaterThan(97.3);
    expect(m.inclinationDeg).toBeLessThan(97.7);
    expect(86_400 / m.periodS).toBeGreaterThan(14.9);
    expect(86_400 / m.periodS).toBeLessThan(15.4);
    expect((m.periodS * m.orbitsPerCycle) / 86_400).toBeCloseTo(16, 9);
  });
  it('descends south-south-west, crossing the equator at 10:30 local solar time', () => {
    for (const k of [0, 1, 100]) {
      const node = trackPoint(m, k, 0);
      expect(node.lat).toBeCloseTo(0, 9);
      const utcH = (((descendingNodeMs(m, k) / 3_600_000) % 24) + 24) % 24;
      const localH = (((utcH + node.lon / 15) % 24) + 24) % 24;
      expect(localH).toBeCloseTo(10.5, 6);
      expect(trackPoint(m, k, 600).lat).toBeLessThan(trackPoint(m, k, 0).lat);
      const heading = trackHeading(m, k, 0);
      expect(heading).toBeGreaterThan(180);
      expect(heading).toBeLessThan(200);
      expect(Math.abs(trackPoint(m, k, m.periodS / 4).lat)).toBeCloseTo(180 - m.inclinationDeg, 6);
    }
  });
  it("steps each orbit's track westward by the Earth turn of one period", () => {
    const a = trackPoint(m, 10, 0).lon;
    const b = trackPoint(m, 11, 0).lon;
    let step = b - a;
    step -= 360 * Math.round(step / 360);
    expect(step).toBeCloseTo((-360 * m.periodS) / 86_400, 6);
  });
});

describe('geometry helpers', () => {
  it('splits a footprint across the antimeridian into a MultiPolygon with west > east bbox', () => {
    const corners = rectangleCorners({ lon: 179.9, lat: 65 }, 190, 40, 40);
    const fp = footprint(corners);
    expect(fp.geometry.type).toBe('MultiPolygon');
    const parts = fp.geometry.type === 'MultiPolygon' ? fp.geometry.coordinates : [];
    expect(parts).toHaveLength(2);
    for (const p of parts) {
      expect(signedArea(p[0]!)).toBeGreaterThan(0);
      for (const [x] of p[0]!) expect(Math.abs(x!)).toBeLessThanOrEqual(180);
    }
    expect(fp.bbox[0]).toBeGreaterThan(fp.bbox[2]);
    expect(fp.bbox[0]).toBeGreaterThan(179);
    expect(fp.bbox[2]).toBeLessThan(-179);
    // the two parts together keep the area of the rectangle
    expect(footprintAreaKm2(fp.geometry)).toBeCloseTo(1600, -1);
    const west = footprint(rectangleCorners({ lon: -179.95, lat: -70 }, 200, 14, 14));
    expect(west.geometry.type).toBe('MultiPolygon');
    expect(west.bbox[0]).toBeGreaterThan(west.bbox[2]);
  });
  it('knows land from sea and where the sun is', () => {
    expect(isLand(2.35, 48.85)).toBe(true); // Paris
    expect(isLand(36.8, -1.3)).toBe(true); // Nairobi
    expect(isLand(-30, 30)).toBe(false); // mid-Atlantic
    expect(isLand(-150, 0)).toBe(false); // Pacific
    // March equinox 2024, 12:06 UTC: the sun is near the zenith at (0, 0)
    const noon = sunPosition(Date.UTC(2024, 2, 20, 12, 7), 0, 0);
    expect(noon.elevation).toBeGreaterThan(88);
    const night = sunPosition(Date.UTC(2024, 2, 20, 0, 0), 0, 0);
    expect(night.elevation).toBeLessThan(-80);
    const morning = sunPosition(Date.UTC(2024, 5, 21, 8, 0), 0, 45);
    expect(morning.azimuth).toBeGreaterThan(90);
    expect(morning.azimuth).toBeLessThan(180);
    expect(sunPosition(Date.UTC(2024, 0, 3), 0, 0).distanceAu).toBeCloseTo(0.9833, 3);
  });
  it('projects to UTM like the published examples', () => {
    // Zone 31N central meridian 3°E on the equator: easting 500 000
    const [x, y] = toUtm(3, 0, 31, false);
    expect(x).toBeCloseTo(500_000, 3);
    expect(y).toBeCloseTo(0, 3);
    // 1° east of the central meridian at 45°N: ~578.8 km easting, ~4 983.4 km northing
    const [x2, y2] = toUtm(4, 45, 31, false);
    expect(x2).toBeCloseTo(578_815, -1);
    expect(y2).toBeCloseTo(4_983_436, -1);
  });
});
