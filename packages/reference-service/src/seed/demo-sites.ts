/**
 * The demo's field sites: a few places a field team would go, each seen on several dates by the
 * same satellite, all in the demo organisation's catalog. The generated archive (`scenes.ts`)
 * spreads its scenes over the world so no two demo catalog records overlap; with these, the
 * compare swipe and the offline date slider can be tried on the demo data. Each scene is small
 * (6 km at 3 m: its COG renders in seconds, so "Take offline" works on it at once), its
 * footprint shifted a little from date to date as real revisits are, and its cloud cover and
 * season vary. Deterministic: the same sites, ids and properties on every machine.
 */
import type Database from 'better-sqlite3';
import { DEMO } from '@eo/fixtures';
import { ARCHIVE_STAC_EXTENSIONS, STAC_VERSION, constantProperties } from '../archive/feature';
import { makeArchiveInserter } from '../archive/repository';
import { makeCatalogInserter } from '../catalog/repository';
import { collectionById, satelliteById } from '../reference/catalog';
import { demoCatalogRecord } from './demo-catalog';
import { sunPosition } from './geo/sun';
import type { GeneratedScene } from './scenes';
import { squareSceneFeature } from './square-scene';

export interface DemoSite {
  /** Part of the catalog record ids (`cat-site-<slug>-<n>`). */
  readonly slug: string;
  readonly name: string;
  /** The site's centre. */
  readonly lon: number;
  readonly lat: number;
  /** Acquisition days (UTC) and the cloud cover of each. */
  readonly dates: ReadonlyArray<{ readonly day: string; readonly cloud: number }>;
}

const SATELLITE_ID = 'sat-aurora-1';
/** Side of each scene's square footprint, km. */
const SCENE_KM = 6;

export const DEMO_SITES: readonly DemoSite[] = [
  {
    slug: 'camargue',
    name: 'Camargue wetlands and rice fields',
    lon: 4.6,
    lat: 43.52,
    dates: [
      { day: '2024-04-11', cloud: 3 },
      { day: '2024-06-06', cloud: 12 },
      { day: '2024-07-29', cloud: 1 },
      { day: '2024-09-18', cloud: 31 },
    ],
  },
  {
    slug: 'nile-delta',
    name: 'Nile delta farmland',
    lon: 31.05,
    lat: 30.95,
    dates: [
      { day: '2024-01-23', cloud: 0 },
      { day: '2024-03-15', cloud: 6 },
      { day: '2024-05-02', cloud: 0 },
    ],
  },
  {
    slug: 'naivasha',
    name: 'Lake Naivasha shore',
    lon: 36.35,
    lat: -0.78,
    dates: [
      { day: '2024-02-07', cloud: 9 },
      { day: '2024-07-16', cloud: 22 },
      { day: '2024-10-04', cloud: 4 },
    ],
  },
];

/** `20240411T101200` from an instant (the archive's id stamp). */
const compactStamp = (ms: number): string =>
  new Date(ms).toISOString().slice(0, 19).replaceAll('-', '').replaceAll(':', '');

/** Overpass at 10:30 local solar time, the archive's sun-synchronous descending node. */
const overpassMs = (day: string, lon: number): number =>
  Date.parse(`${day}T00:00:00Z`) + Math.round((10.5 - lon / 15) * 3_600_000);

export interface DemoSiteScene {
  readonly site: DemoSite;
  /** 1-based, in date order. */
  readonly n: number;
  readonly recordId: string;
  readonly scene: GeneratedScene;
}

/** Every site's scenes, in site then date order. */
export function demoSiteScenes(): DemoSiteScene[] {
  const sat = satelliteById(SATELLITE_ID)!;
  const level = collectionById(sat.collectionId)?.productLevel ?? 'L2A';
  const out: DemoSiteScene[] = [];
  DEMO_SITES.forEach((site, s) => {
    site.dates.forEach(({ day, cloud }, d) => {
      const ms = overpassMs(day, site.lon);
      // Revisits do not land on the same grid: up to ~400 m off the centre, a degree of turn.
      const lon = site.lon + 0.004 * Math.sin(1.7 * d + s);
      const lat = site.lat + 0.003 * Math.cos(2.3 * d + s);
      const id = `AUR1_${compactStamp(ms)}_${level}_R${String(40 + 17 * s).padStart(3, '0')}_F${String(900 + d).padStart(4, '0')}`;
      const base = squareSceneFeature({
        id,
        lon,
        lat,
        km: SCENE_KM,
        datetime: new Date(ms).toISOString(),
        cloudCover: cloud,
        rotateDeg: 10 + 0.5 * d,
        satelliteId: SATELLITE_ID,
      });
      const sun = sunPosition(ms, lon, lat);
      const created = new Date(ms + 6 * 3_600_000).toISOString();
      const feature = {
        ...base,
        stac_version: STAC_VERSION,
        stac_extensions: ARCHIVE_STAC_EXTENSIONS,
        properties: {
          title: id,
          ...base.properties,
          startdatetime: new Date(ms - 2_000).toISOString(),
          created,
          updated: created,
          ...constantProperties(sat.collectionId, sat.id),
          'view:sun_azimuth': Math.round(sun.azimuth * 100) / 100,
          'view:sun_elevation': Math.round(sun.elevation * 100) / 100,
          'view:scene_center_lat': Math.round(lat * 1e6) / 1e6,
          'view:scene_center_lon': Math.round(lon * 1e6) / 1e6,
          'sat:relative_orbit': 40 + 17 * s,
        },
      };
      out.push({
        site,
        n: d + 1,
        recordId: `cat-site-${site.slug}-${d + 1}`,
        scene: { satelliteId: SATELLITE_ID, feature },
      });
    });
  });
  return out;
}

/**
 * Adds the sites' scenes to the archive and to the demo organisation's catalog; what is there
 * already is left as it is (idempotent). Returns the catalog records added.
 */
export function seedDemoSites(sqlite: Database.Database, nowMs: number): number {
  const insertScene = makeArchiveInserter(sqlite);
  const insertRecord = makeCatalogInserter(sqlite);
  const hasScene = sqlite.prepare('SELECT 1 FROM archive_scenes WHERE id = ?');
  const hasRecord = sqlite.prepare('SELECT 1 FROM catalog_records WHERE id = ?');
  let added = 0;
  sqlite.transaction(() => {
    for (const { scene, recordId, n } of demoSiteScenes()) {
      if (!hasScene.get(scene.feature.id)) insertScene(scene.feature, scene.satelliteId);
      if (hasRecord.get(recordId)) continue;
      insertRecord(
        demoCatalogRecord(scene, {
          id: recordId,
          orgId: DEMO.orgId,
          userId: DEMO.users[0].id,
          nowUs: nowMs * 1000,
          jitter: (n * 0.37) % 1,
        }),
        { orgId: DEMO.orgId, orderId: null, orderItemId: null },
      );
      added++;
    }
  })();
  return added;
}
