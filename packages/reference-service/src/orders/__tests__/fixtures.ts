/** Test data for the order flow: archive scenes (spec 2.11 features) and order requests. */
import type Database from 'better-sqlite3';
import { makeArchiveInserter, type ArchiveFeatureIn } from '../../archive/repository';
import { DEMO } from '../../testing/harness';
import type { TestApp } from '../../testing/harness';

type Box = [number, number, number, number];

export const boxPolygon = ([w, s, e, n]: Box) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
});

export const featureCollection = (...boxes: Box[]) => ({
  type: 'FeatureCollection' as const,
  features: boxes.map((b) => ({ type: 'Feature' as const, geometry: boxPolygon(b) })),
});

/** About 10 km × 11 km (~110 km²) near Bologna. */
export const FIELD: Box = [11.3, 44.45, 11.425, 44.55];

export interface SceneOpts {
  id: string;
  box: Box;
  satelliteId?: string;
  collection?: string;
  datetime?: string;
  cloud?: number;
  offNadir?: number;
}

export function sceneFeature(o: SceneOpts): ArchiveFeatureIn {
  const sat = o.satelliteId ?? 'sat-aurora-1';
  const collection =
    o.collection ?? (sat.startsWith('sat-kestrel') ? 'col-kestrel-ortho' : 'col-aurora-l2a');
  const [w, s, e, n] = o.box;
  const dt = o.datetime ?? '2024-05-17T10:21:33.000000Z';
  return {
    id: o.id,
    type: 'Feature',
    collection,
    stac_version: '1.0.0',
    stac_extensions: ['https://stac-extensions.github.io/eo/v1.1.0/schema.json'],
    bbox: [String(w), String(s), String(e), String(n)],
    geometry: boxPolygon(o.box),
    assets: {
      analytic: {
        href: `https://archive.example/${o.id}/analytic.tif`,
        type: 'image/tiff',
        roles: ['data'],
      },
    },
    links: [],
    properties: {
      altitude: 525000,
      'eo:cloud_cover': o.cloud ?? 5,
      gsd: sat.startsWith('sat-kestrel') ? 0.5 : 3,
      'rd:anomalous_pixels': 0.01,
      'rd:earth_sun_distance': 1.01,
      'view:off_nadir': o.offNadir ?? 8,
      'view:scene_center_lat': (s + n) / 2,
      'view:scene_center_lon': (w + e) / 2,
      'view:sun_azimuth': 150.2,
      'view:sun_elevation': 58.7,
      constellation: sat.startsWith('sat-kestrel') ? 'kestrel' : 'aurora',
      created: '2024-05-17T12:00:00Z',
      datetime: dt,
      description: 'test scene',
      license: 'CC-BY-4.0',
      platform: sat.replace('sat-', ''),
      'proj:code': 'EPSG:32632',
      'rd:product_level': 'L2A',
      'rd:sat_id': sat,
      'rd:type': 'scene',
      'sci:doi': '10.5072/test',
      startdatetime: dt,
      title: o.id,
      updated: '2024-05-17T12:00:00Z',
      instruments: ['msi'],
      'proj:shape': [3000, 3000],
      'proj:transform': [3, 0, 600000, 0, -3, 4930000, 0, 0, 1],
    },
  };
}

export function insertScenes(sqlite: Database.Database, scenes: SceneOpts[]): void {
  const insert = makeArchiveInserter(sqlite);
  sqlite.transaction(() => {
    for (const s of scenes) insert(sceneFeature(s), s.satelliteId ?? 'sat-aurora-1');
  })();
}

/** Scenes every order test can use. */
export const SCENES = {
  /** Covers FIELD entirely. */
  wide: { id: 'scn-wide', box: [11.2, 44.4, 11.6, 44.7] as Box },
  /** Covers the western half of FIELD only. */
  west: { id: 'scn-west', box: [11.2, 44.4, 11.35, 44.7] as Box, cloud: 40 },
  /** Far away from FIELD. */
  far: { id: 'scn-far', box: [2.2, 48.8, 2.4, 48.9] as Box },
  /** A Kestrel scene over FIELD. */
  kestrel: {
    id: 'scn-kestrel',
    box: [11.2, 44.4, 11.6, 44.7] as Box,
    satelliteId: 'sat-kestrel-1',
    offNadir: 25,
  },
} satisfies Record<string, SceneOpts>;

export function seedScenes(t: TestApp): void {
  insertScenes(t.app.ctx.sqlite, Object.values(SCENES));
}

export const PROJECT = DEMO.projects[0].id;

export const taskingItem = (over: Record<string, unknown> = {}) => ({
  project_id: PROJECT,
  name: 'Field survey',
  geometry: featureCollection(FIELD),
  start_date: '2030-06-01T00:00:00Z',
  end_date: '2030-06-30T00:00:00Z',
  ...over,
});

export const archiveItem = (over: Record<string, unknown> = {}) => ({
  project_id: PROJECT,
  name: 'Archive pick',
  geometry: featureCollection(FIELD),
  item_ids: [SCENES.wide.id],
  ...over,
});

export const recurringItem = (over: Record<string, unknown> = {}) => ({
  project_id: PROJECT,
  name: 'Weekly watch',
  geometry: featureCollection(FIELD),
  recurrence: 'WEEKLY',
  start_date: '2030-06-01T00:00:00Z',
  end_date: '2030-07-01T00:00:00Z',
  no_of_occurrences: 3,
  ...over,
});

/** Now, for tests that need fixed feasibility: 2030-01-01. */
export const NOW_MS = Date.UTC(2030, 0, 1);
