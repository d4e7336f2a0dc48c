/**
 * Demo catalog records (spec 2.10): some archive scenes "already delivered" to the demo
 * organisation, so the desktop has a catalog to browse on first start. Each record's details
 * are the scene as a STAC item with every property key of 2.10.
 */
import { geodesicArea, utmWkt2, type Geometry } from '@eo/domain';
import { sceneAssets, STAC_VERSION } from '../archive/feature';
import type { CatalogRecordOut } from '../catalog/repository';
import { BANDSETS, collectionById } from '../reference/catalog';
import type { GeneratedScene } from './scenes';

/** Every `DEMO_CATALOG_EVERY`-th scene becomes a catalog record, at most `DEMO_CATALOG_MAX`. */
export const DEMO_CATALOG_EVERY = 20;
export const DEMO_CATALOG_MAX = 500;

const CATALOG_STAC_EXTENSIONS = [
  'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
  'https://stac-extensions.github.io/view/v1.0.0/schema.json',
  'https://stac-extensions.github.io/projection/v1.1.0/schema.json',
  'https://stac-extensions.github.io/sat/v1.0.0/schema.json',
  'https://stac-extensions.github.io/scientific/v1.0.0/schema.json',
];

export interface DemoRecordContext {
  readonly id: string;
  readonly orgId: string;
  readonly userId: string;
  /** Latest instant a record may claim (µs); delivery happens 1 to 10 days after capture. */
  readonly nowUs: number;
  /** 0..1, decides the delivery delay. */
  readonly jitter: number;
  /** Include the scene's asset list (default true; benchmarks leave it out to stay small). */
  readonly assets?: boolean;
}

const num = (v: unknown, fallback = 0) => (typeof v === 'number' ? v : fallback);

export function demoCatalogRecord(scene: GeneratedScene, c: DemoRecordContext): CatalogRecordOut {
  const f = scene.feature;
  const p = f.properties;
  const collectionId = f.collection ?? '';
  const datetime = String(p.datetime);
  const epsg = Number(/^EPSG:(\d+)$/.exec(String(p['proj:code']))?.[1] ?? 4326);
  const zone = epsg % 100;
  const deliveredUs = Math.min(
    c.nowUs,
    Date.parse(datetime) * 1000 + Math.round((1 + 9 * c.jitter) * 86_400_000_000),
  );
  const delivered = new Date(Math.floor(deliveredUs / 1000)).toISOString();
  const geometry = f.geometry as Geometry;
  return {
    id: c.id,
    // km², like order items' area (the domain's geodesic area, in m²)
    area: Math.round(geodesicArea(geometry) / 1000) / 1000,
    bandset_id: BANDSETS.find((b) => b.satelliteId === scene.satelliteId)?.id ?? null,
    task_id: null,
    org_id: c.orgId,
    delivery_status: 'SUCCESSFUL',
    created_at: delivered,
    updated_at: delivered,
    created_by: c.userId,
    updated_by: c.userId,
    details: {
      type: 'Feature',
      stac_version: STAC_VERSION,
      stac_extensions: CATALOG_STAC_EXTENSIONS,
      id: f.id,
      collection: collectionId,
      bbox: (f.bbox ?? []).map(Number),
      geometry,
      assets:
        c.assets === false
          ? {}
          : (f.assets ?? sceneAssets(collectionId, scene.satelliteId, f.id, datetime)),
      links: [
        {
          href: `/v0/archives/collections/${encodeURIComponent(collectionId)}/items`,
          rel: 'collection',
          type: 'application/geo+json',
          title: collectionById(collectionId)?.title ?? collectionId,
        },
      ],
      properties: {
        constellation: p.constellation,
        created: p.created,
        datetime,
        'eo:cloud_cover': p['eo:cloud_cover'],
        gsd: p.gsd,
        'proj:epsg': epsg,
        'sat:relative_orbit': num(p['sat:relative_orbit']),
        'view:off_nadir': p['view:off_nadir'],
        // Our look angle is the off-nadir angle of the pointing (unsigned).
        'view:satellite_look_angle': p['view:off_nadir'],
        'view:sun_azimuth': p['view:sun_azimuth'],
        'view:sun_elevation': p['view:sun_elevation'],
        instruments: p.instruments,
        platform: p.platform,
        'proj:wkt2': utmWkt2(zone, epsg >= 32700),
        'sat:orbit_state': 'descending',
        'sci:doi': p['sci:doi'],
        updated: p.updated,
        'proj:shape': p['proj:shape'],
        'proj:transform': p['proj:transform'],
      },
    },
  };
}
