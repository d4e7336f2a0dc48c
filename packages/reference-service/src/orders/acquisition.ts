/**
 * The catalog record (spec 2.10) a completed task produces, with a full STAC item in
 * `details` (every property key 2.10 lists):
 *
 * - ARCHIVE task: the ordered scene's feature, its 2.11 properties mapped onto 2.10 ones
 *   (derived where 2.11 has no equivalent: `proj:epsg` from `proj:code`, orbit from the id).
 * - TASKING task: a new acquisition over the item geometry (its bounding box, padded 5%),
 *   at about 10:30 local solar time on a day inside the task's window, with cloud cover and
 *   off-nadir within the item's limits and the sun where it would be.
 *
 * Values are derived from a hash of the task id, so a task always yields the same record.
 */
import { createHash } from 'node:crypto';
import type { Geometry, Instant } from '@eo/domain';
import {
  calendarDateFromInstant,
  daysFromCivil,
  geodesicArea,
  instantFromCalendarDate,
  geometryBbox,
  toUtm,
  utmEpsg,
  utmOfEpsg,
  utmWkt2,
} from '@eo/domain';
import { sceneFeature, type ArchiveSceneRow } from '../archive/repository';
import type { CatalogRecordOut } from '../catalog/repository';
import { satelliteById, type Satellite } from '../reference/catalog';
import { toIso } from '../time';
import type { OrderItemRow, TaskRow } from './rows';

const DAY_US = 86_400_000_000;
const RAD = Math.PI / 180;

export const STAC_VERSION = '1.0.0';
export const STAC_EXTENSIONS = [
  'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
  'https://stac-extensions.github.io/view/v1.0.0/schema.json',
  'https://stac-extensions.github.io/projection/v1.1.0/schema.json',
  'https://stac-extensions.github.io/sat/v1.0.0/schema.json',
  'https://stac-extensions.github.io/scientific/v1.0.0/schema.json',
];
/** Where simulated tasking products live (a reserved example domain: nothing is fetched). */
const DATA_BASE = 'https://data.eo-field-desk.example';
/** Relative orbits in one repeat cycle of our sun-synchronous satellites. */
const ORBITS_PER_CYCLE = 143;

/** Numbers in [0, 1) derived from a seed string. */
function unitNumbers(seed: string): number[] {
  const digest = createHash('sha256').update(seed).digest();
  const out: number[] = [];
  for (let i = 0; i + 4 <= digest.length; i += 4) out.push(digest.readUInt32BE(i) / 2 ** 32);
  return out;
}

/** The WKT2 of a UTM EPSG code (`proj:wkt2`). */
function wkt2Of(epsg: number): string {
  const z = utmOfEpsg(epsg);
  return z ? utmWkt2(z.zone, z.south) : '';
}

/**
 * Grid shape and affine transform of a bbox in its UTM zone: the north-up box around the
 * projected corners and edge midpoints, on whole pixels of `gsd` (as the seed's scenes).
 */
function grid(bbox: [number, number, number, number], epsg: number, gsd: number) {
  const [w, s, e, n] = bbox;
  const z = utmOfEpsg(epsg) ?? { zone: 31, south: false };
  const xy: [number, number][] = [];
  for (const lon of [w, (w + e) / 2, e])
    for (const lat of [s, (s + n) / 2, n]) xy.push(toUtm(lon, lat, z.zone, z.south));
  const minX = Math.floor(Math.min(...xy.map((p) => p[0])) / gsd) * gsd;
  const maxX = Math.ceil(Math.max(...xy.map((p) => p[0])) / gsd) * gsd;
  const minY = Math.floor(Math.min(...xy.map((p) => p[1])) / gsd) * gsd;
  const maxY = Math.ceil(Math.max(...xy.map((p) => p[1])) / gsd) * gsd;
  const r = (x: number) => Math.round(x * 100) / 100;
  const rows = Math.max(1, Math.round((maxY - minY) / gsd));
  const cols = Math.max(1, Math.round((maxX - minX) / gsd));
  return { shape: [rows, cols], transform: [gsd, 0, r(minX), 0, -gsd, r(maxY), 0, 0, 1] };
}

/** Sun elevation and azimuth (degrees) at a place and instant (declination model, ±1°). */
export function sunPosition(
  lon: number,
  lat: number,
  at: Instant,
): { elevation: number; azimuth: number } {
  const d = calendarDateFromInstant(at);
  const dayOfYear = daysFromCivil(d.year, d.month, d.day) - daysFromCivil(d.year, 1, 1) + 1;
  const decl = 23.44 * RAD * Math.sin((2 * Math.PI * (284 + dayOfYear)) / 365);
  const utcHours = (at - instantFromCalendarDate(d)) / 3_600_000_000;
  const hourAngle = (utcHours + lon / 15 - 12) * 15 * RAD;
  const phi = lat * RAD;
  const sinEl =
    Math.sin(phi) * Math.sin(decl) + Math.cos(phi) * Math.cos(decl) * Math.cos(hourAngle);
  const elevation = Math.asin(Math.max(-1, Math.min(1, sinEl)));
  const azimuth =
    Math.atan2(
      Math.sin(hourAngle),
      Math.cos(hourAngle) * Math.sin(phi) - Math.tan(decl) * Math.cos(phi),
    ) + Math.PI;
  const round = (x: number) => Math.round((x / RAD) * 100) / 100;
  return { elevation: round(elevation), azimuth: round(azimuth) % 360 };
}

function boxPolygon([w, s, e, n]: [number, number, number, number]): Geometry {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  };
}

/** A moment inside [start, end] at about 10:30 local solar time over `lon`. */
function acquisitionInstant(start: Instant, end: Instant, lon: number, u: number): Instant {
  const days = Math.max(1, Math.floor((end - start) / DAY_US));
  const dayStart =
    instantFromCalendarDate(calendarDateFromInstant(start)) + Math.floor(u * days) * DAY_US;
  const utcHours = (((10.5 - lon / 15) % 24) + 24) % 24;
  let t = dayStart + Math.round(utcHours * 3_600_000_000);
  if (t < start) t += DAY_US;
  if (t > end) t = start + Math.floor((end - start) / 2);
  return t;
}

export interface RecordContext {
  readonly item: OrderItemRow;
  readonly task: TaskRow;
  readonly catalogId: string;
  readonly nowUs: Instant;
  /** The ordered scene (ARCHIVE tasks). */
  readonly scene?: ArchiveSceneRow;
}

function links(collection: string, derivedFrom?: string) {
  const out = [
    {
      href: `/v0/archives/collections/${encodeURIComponent(collection)}/items`,
      rel: 'collection',
      title: collection,
      type: 'application/json',
    },
  ];
  if (derivedFrom) {
    out.push({
      href: `/v0/archives/collections/${encodeURIComponent(collection)}/items?item_id=${encodeURIComponent(derivedFrom)}`,
      rel: 'derived_from',
      title: `archive scene ${derivedFrom}`,
      type: 'application/geo+json',
    });
  }
  return out;
}

function recordShell(ctx: RecordContext, details: CatalogRecordOut['details']): CatalogRecordOut {
  const { item, task, nowUs } = ctx;
  const bandset = JSON.parse(item.bandset_json) as { bandset_id: string };
  return {
    id: ctx.catalogId,
    area: Math.round((geodesicArea(details.geometry as Geometry) / 1e6) * 1000) / 1000,
    bandset_id: bandset.bandset_id,
    task_id: task.id,
    org_id: item.org_id,
    order_id: item.order_id,
    order_item_id: item.id,
    delivery_status: 'SUCCESSFUL',
    details,
    created_at: toIso(nowUs),
    updated_at: toIso(nowUs),
    created_by: item.user_id,
    updated_by: item.user_id,
  };
}

export function archiveRecord(ctx: RecordContext): CatalogRecordOut {
  const scene = ctx.scene!;
  const f = sceneFeature(scene);
  const p = f.properties;
  const satellite = satelliteById(scene.satellite_id);
  const geometry = f.geometry as Geometry;
  const bbox = geometryBbox(geometry)!;
  const [u0] = unitNumbers(scene.id);
  const code = typeof p['proj:code'] === 'string' ? /^EPSG:(\d+)$/.exec(p['proj:code']) : null;
  const epsg = code ? Number(code[1]) : utmEpsg((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
  const gsd = p.gsd ?? satellite?.gsd ?? 10;
  const g = grid(bbox, epsg, gsd);
  const offNadir = p['view:off_nadir'] ?? scene.off_nadir;
  const now = toIso(ctx.nowUs);
  return recordShell(ctx, {
    type: 'Feature',
    stac_version: f.stac_version ?? STAC_VERSION,
    stac_extensions: STAC_EXTENSIONS,
    id: f.id,
    collection: f.collection ?? scene.collection_id,
    geometry,
    bbox,
    assets: f.assets ?? {},
    links: links(f.collection ?? scene.collection_id, f.id),
    properties: {
      constellation: p.constellation ?? satellite?.constellation ?? null,
      created: now,
      datetime: p.datetime ?? toIso(scene.datetime_us),
      'eo:cloud_cover': p['eo:cloud_cover'] ?? scene.cloud_cover,
      gsd,
      'proj:epsg': epsg,
      'sat:relative_orbit': 1 + Math.floor(u0! * ORBITS_PER_CYCLE),
      'view:off_nadir': offNadir,
      'view:satellite_look_angle': offNadir,
      'view:sun_azimuth': p['view:sun_azimuth'] ?? 0,
      'view:sun_elevation': p['view:sun_elevation'] ?? 0,
      instruments: p.instruments ?? [...(satellite?.instruments ?? [])],
      platform: p.platform ?? satellite?.platform ?? null,
      'proj:wkt2': wkt2Of(epsg),
      'sat:orbit_state': 'descending',
      'sci:doi': p['sci:doi'] ?? `10.5072/eo.${scene.collection_id}`,
      updated: now,
      'proj:shape': p['proj:shape'] ?? g.shape,
      'proj:transform': p['proj:transform'] ?? g.transform,
    },
  });
}

export function taskingRecord(ctx: RecordContext, satellite: Satellite): CatalogRecordOut {
  const { item, task } = ctx;
  const itemGeometry = JSON.parse(item.geometry_json) as {
    features: Array<{ geometry: Geometry }>;
  };
  const boxes = itemGeometry.features.map((f) => geometryBbox(f.geometry)!);
  let [w, s, e, n] = [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
  const padLon = Math.max((e - w) * 0.05, 0.005);
  const padLat = Math.max((n - s) * 0.05, 0.005);
  const bbox: [number, number, number, number] = [
    Math.max(-180, w - padLon),
    Math.max(-90, s - padLat),
    Math.min(180, e + padLon),
    Math.min(90, n + padLat),
  ];
  [w, s, e, n] = bbox;
  const [uDay, uCloud, uNadir, uOrbit] = unitNumbers(task.id);
  const lon = (w + e) / 2;
  const lat = (s + n) / 2;
  const at = acquisitionInstant(task.start_date, task.end_date, lon, uDay!);
  const sun = sunPosition(lon, lat, at);
  const epsg = utmEpsg(lon, lat);
  const g = grid(bbox, epsg, satellite.gsd);
  const cloud = Math.round(uCloud! * (item.cloud_cover ?? 20) * 10) / 10;
  const offNadir = Math.round(uNadir! * (item.off_nadir ?? 30) * 10) / 10;
  const stacId = `${satellite.platform}_${toIso(at).slice(0, 10).replaceAll('-', '')}_${task.id.slice(-12)}`;
  const href = `${DATA_BASE}/${satellite.collectionId}/${stacId}`;
  const now = toIso(ctx.nowUs);
  return recordShell(ctx, {
    type: 'Feature',
    stac_version: STAC_VERSION,
    stac_extensions: STAC_EXTENSIONS,
    id: stacId,
    collection: satellite.collectionId,
    geometry: boxPolygon(bbox),
    bbox,
    assets: {
      analytic: {
        href: `${href}/analytic.tif`,
        type: 'image/tiff; application=geotiff; profile=cloud-optimized',
        title: 'Analytic bands',
        roles: ['data'],
      },
      thumbnail: {
        href: `${href}/thumbnail.png`,
        type: 'image/png',
        title: 'Thumbnail',
        roles: ['thumbnail'],
      },
      overview: {
        href: `${href}/overview.png`,
        type: 'image/png',
        title: 'Overview',
        roles: ['overview'],
      },
    },
    links: links(satellite.collectionId),
    properties: {
      constellation: satellite.constellation,
      created: now,
      datetime: toIso(at),
      'eo:cloud_cover': cloud,
      gsd: satellite.gsd,
      'proj:epsg': epsg,
      'sat:relative_orbit': 1 + Math.floor(uOrbit! * ORBITS_PER_CYCLE),
      'view:off_nadir': offNadir,
      'view:satellite_look_angle': offNadir,
      'view:sun_azimuth': sun.azimuth,
      'view:sun_elevation': sun.elevation,
      instruments: [...satellite.instruments],
      platform: satellite.platform,
      'proj:wkt2': wkt2Of(epsg),
      'sat:orbit_state': 'descending',
      'sci:doi': `10.5072/eo.${satellite.collectionId}`,
      updated: now,
      'proj:shape': g.shape,
      'proj:transform': g.transform,
    },
  });
}
