/**
 * Builders of response resources (spec part 2). Realistic variants fill every field of the
 * schema with plausible values in the right timestamp layout; minimal variants hold only
 * the required fields.
 */
import type { z } from 'zod';
import {
  AOI_STATUSES,
  FEASIBILITY_STATUSES,
  ORDER_ITEM_STATUSES,
  ORDER_ITEM_TYPES,
  PAYMENT_STATUSES,
  VISUALIZATION_STATUSES,
  type OrderItemType,
} from '../enums';
import { parseExpression } from '../expression';
import {
  ASSET_STATUSES,
  DELIVERY_SPEEDS,
  DELIVERY_STATUSES,
  IMAGE_TYPES,
  JOB_STATUSES,
  JOB_TASK_STATUSES,
  RECURRENCES,
  TASK_DELIVERY_STATUSES,
  TASK_STATUSES,
  USECASES,
} from '../known-values';
import type { Aoi, Asset, SpectralIndex, Visualization } from '../resources/aoi';
import type {
  ArchiveFeature,
  ArchiveFeatureCollection,
  ArchiveProperties,
  CatalogProperties,
  CatalogRecord,
  StacItem,
} from '../resources/catalog';
import type { Link } from '../resources/common';
import type { Delivery } from '../resources/delivery';
import type { Job, JobTask, ValError } from '../resources/job';
import type { Order, OrderItem, Task } from '../resources/order';
import type { Instant } from '../time/instant';
import { defineBuilder } from './builder';
import { type BuildOptions, type Rng, rngOf } from './rng';
import {
  SATELLITES,
  type Footprint,
  type FootprintPolygon,
  type SatelliteProfile,
  addDays,
  addMinutes,
  buildFootprint,
  dmy,
  iso,
  micro,
  randomInstant,
  timeline,
  ymd,
} from './world';

type In<T extends z.ZodType> = z.input<T>;

const USER_NAMES = ['amara.okafor', 'lukas.brandt', 'priya.raman', 'mateo.silva', 'yuki.tanaka'];
const userId = (rng: Rng) => `usr_${rng.hex(12)}`;
const orgId = (rng: Rng) => `org_${rng.hex(10)}`;
const projectId = (rng: Rng) => `prj_${rng.hex(10)}`;
const txId = (rng: Rng) => `txn_${rng.hex(16)}`;
const money = (rng: Rng, min: number, max: number) => rng.float(min, max, 2);

/** A STAC-like item id: `<platform>_<yyyymmdd>_<hhmmss>_<hex>`. */
function stacItemId(rng: Rng, sat: SatelliteProfile, at: number): string {
  const d = iso(at);
  return `${sat.platform}_${d.slice(0, 10).replaceAll('-', '')}_${d.slice(11, 19).replaceAll(':', '')}_${rng.hex(4)}`;
}

function cloudDelivery(rng: Rng) {
  return {
    config: rng.pick(['aws-s3-eu-west-1', 'gcs-europe-west4', 'azure-blob-westeurope']),
    path: `s3://field-desk-deliveries/${rng.pick(USER_NAMES)}/${rng.hex(8)}/`,
  };
}

// --- orders -------------------------------------------------------------------------------------

export const buildTask = defineBuilder<Task, In<typeof Task>>(
  (rng, o) => {
    const t = timeline(rng);
    const start = randomInstant(rng);
    const by = userId(rng);
    return {
      id: rng.uuid(),
      order_item_id: o.order_item_id ?? rng.uuid(),
      type: rng.pick(['ARCHIVE', 'TASKING'] as const),
      status: rng.pick(TASK_STATUSES),
      delivery_status: rng.pick(TASK_DELIVERY_STATUSES),
      start_date: dmy(start),
      end_date: dmy(addDays(start, rng.int(1, 30))),
      number_of_strips: rng.int(1, 6),
      tokens_used: rng.int(10, 5000),
      transaction_id: txId(rng),
      created_at: iso(t.created),
      updated_at: iso(t.updated),
      created_by: by,
      updated_by: by,
    };
  },
  (rng, o) => ({ id: rng.uuid(), order_item_id: o.order_item_id ?? rng.uuid() }),
);

/** Tasks inherit the item's id; archive items get ARCHIVE tasks. */
export const buildOrderItem = defineBuilder<OrderItem, In<typeof OrderItem>>(
  (rng, o) => {
    const id = o.id ?? rng.uuid();
    const type: OrderItemType = o.type ?? rng.pick(ORDER_ITEM_TYPES);
    const sat = rng.pick(SATELLITES);
    const fp = buildFootprint(rng);
    const t = timeline(rng);
    const start = addDays(t.created, rng.int(1, 14));
    const occurrencesCount = type === 'RECURRING' ? rng.int(2, 6) : 1;
    const periodDays = type === 'RECURRING' ? 7 : rng.int(7, 45);
    const windowDays = type === 'RECURRING' ? 3 : periodDays;
    const occurrences = Array.from({ length: occurrencesCount }, (_, k) => ({
      start: iso(addDays(start, k * periodDays)),
      end: iso(addDays(start, k * periodDays + windowDays)),
    }));
    const end = addDays(start, (occurrencesCount - 1) * periodDays + windowDays);
    const bands = (['blue', 'green', 'red', 'nir'] as const).map((role, k) => ({
      name: sat.bands[role],
      wavelength: sat.wavelengths[k]!,
    }));
    const images = Array.from({ length: type === 'ARCHIVE' ? rng.int(1, 3) : 0 }, () => ({
      item_id: stacItemId(rng, sat, randomInstant(rng)),
      geometry: buildFootprint(rng, { site: fp.site }).polygon,
    }));
    const area = fp.areaSqM / 1e6;
    const baseAmount = money(rng, 50, 5000);
    const upliftPct = rng.pick([0, 10, 25, 50]);
    const by = o.user_id ?? userId(rng);
    const feasibility = rng.pick(FEASIBILITY_STATUSES);
    return {
      id,
      name: `${type === 'ARCHIVE' ? 'Archive' : type === 'TASKING' ? 'Tasking' : 'Monitoring'} ${fp.site.name}`,
      order_id: o.order_id ?? rng.uuid(),
      org_id: orgId(rng),
      project_id: projectId(rng),
      user_id: by,
      type,
      status: rng.pick(ORDER_ITEM_STATUSES),
      payment_status: rng.pick(PAYMENT_STATUSES),
      feasibility_status: feasibility,
      last_feasibility_check: iso(addMinutes(t.created, rng.int(1, 120))),
      area: Math.round(area * 100) / 100,
      bandset: {
        bandset_id: `${sat.constellation}-4b`,
        bands,
        custom: [bands.map((b) => b.wavelength)],
      },
      number_of_bands: bands.length,
      base_amount: baseAmount,
      final_amount: Math.round(baseAmount * (100 + upliftPct)) / 100,
      tokens_used: rng.int(10, 5000),
      transaction_id: txId(rng),
      uplifts: [
        {
          amount: Math.round(baseAmount * upliftPct) / 100,
          item_id: id,
          percentage: upliftPct,
          subtitle: upliftPct === 0 ? 'No uplift' : `${upliftPct}% on base price`,
          title: rng.pick(['Priority delivery', 'Cloud cover guarantee', 'Off-nadir limit']),
        },
      ],
      cloud_cover: rng.int(0, 30),
      off_nadir: rng.int(0, 30),
      cloud_delivery: cloudDelivery(rng),
      delivery_speed: rng.pick(DELIVERY_SPEEDS),
      image_type: rng.pick(IMAGE_TYPES),
      recurrence: type === 'RECURRING' ? rng.pick(RECURRENCES.filter((r) => r !== 'ONCE')) : 'ONCE',
      usecase: rng.pick(USECASES),
      start_date: iso(start),
      end_date: iso(end),
      no_of_occurrences: occurrencesCount,
      occurrences,
      images,
      geometry: {
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: fp.polygon, properties: { name: fp.site.name } }],
      },
      tasks: Array.from({ length: rng.int(1, 2) }, () =>
        buildTask(
          {
            order_item_id: id,
            type: type === 'ARCHIVE' ? 'ARCHIVE' : 'TASKING',
            start_date: dmy(start),
            end_date: dmy(end),
            created_at: iso(addMinutes(t.created, rng.int(1, 60))),
            updated_at: iso(t.updated),
          },
          { rng },
        ),
      ),
      validation_errors:
        feasibility === 'SUCCESS'
          ? []
          : [
              {
                code: 'weak_feasibility',
                field: 'cloud_cover',
                message: 'few acquisitions under the requested cloud cover in the window',
              },
            ],
      created_at: iso(t.created),
      updated_at: iso(t.updated),
      created_by: by,
      updated_by: by,
    };
  },
  (rng, o) => ({
    id: rng.uuid(),
    order_id: o.order_id ?? rng.uuid(),
    type: rng.pick(ORDER_ITEM_TYPES),
    status: rng.pick(ORDER_ITEM_STATUSES),
  }),
);

/** A PAID order with 1-3 items that belong to it (same order_id, org, user). */
export const buildOrder = defineBuilder<Order, In<typeof Order>>(
  (rng, o) => {
    const id = o.id ?? rng.uuid();
    const t = timeline(rng);
    const user = userId(rng);
    const org = orgId(rng);
    const status = o.status ?? 'PAID';
    const items = Array.from({ length: rng.int(1, 3) }, () =>
      buildOrderItem({ order_id: id, org_id: org, user_id: user }, { rng }),
    );
    const total = items.reduce((s, i) => s + (i.final_amount ?? 0), 0);
    return {
      id,
      created_at: iso(t.created),
      updated_at: iso(t.updated),
      created_by: user,
      updated_by: user,
      user_id: user,
      org_id: org,
      order_items: items,
      paid_at:
        status === 'PAID' || status === 'REFUND'
          ? iso(addMinutes(t.created, rng.int(1, 30)))
          : null,
      status,
      total_amount: Math.round(total * 100) / 100,
      transaction_id: txId(rng),
    };
  },
  (rng) => ({ id: rng.uuid(), created_at: iso(randomInstant(rng)), status: 'UNPAID' }),
);

// --- AOIs, assets, visualizations, indices ------------------------------------------------------

export const buildAoi = defineBuilder<Aoi, In<typeof Aoi>>(
  (rng, o) => {
    const sat = rng.pick(SATELLITES);
    const fp = buildFootprint(rng, {
      widthKm: rng.float(0.5, 5, 2),
      heightKm: rng.float(0.5, 5, 2),
    });
    const t = timeline(rng);
    const status = o.status ?? rng.pick(AOI_STATUSES);
    const itemIds = Array.from({ length: rng.int(1, 4) }, () =>
      stacItemId(rng, sat, randomInstant(rng)),
    );
    return {
      aoi_id: rng.uuid(),
      name: `${fp.site.name} block ${rng.int(1, 40)}`,
      description: `Fields monitored near ${fp.site.name}`,
      satellite_id: sat.satelliteId,
      project_id: projectId(rng),
      images: { item_ids: itemIds, count: itemIds.length },
      eo_bands: Object.values(sat.bands),
      geometry: fp.polygon,
      progress: status === 'success' ? 100 : status === 'started' ? 0 : rng.int(1, 99),
      status,
      is_favourite: rng.bool(0.3),
      created_at: micro(t.created),
      updated_at: micro(t.updated),
      user_id: userId(rng),
      area_in_sq_m: fp.areaSqM,
      centroid: fp.centroid,
    };
  },
  (rng) => ({ aoi_id: rng.uuid(), status: 'started' }),
);

export const buildAsset = defineBuilder<Asset, In<typeof Asset>>(
  (rng, o) => {
    const sat = rng.pick(SATELLITES);
    const fp = buildFootprint(rng, {
      widthKm: rng.float(0.5, 5, 2),
      heightKm: rng.float(0.5, 5, 2),
    });
    const t = timeline(rng);
    const aoiId = o.aoi_id ?? rng.uuid();
    const id = rng.uuid();
    const date = ymd(addDays(t.created, -rng.int(0, 10)));
    const status = o.status ?? rng.pick(ASSET_STATUSES);
    return {
      id,
      aoi_id: aoiId,
      visualization_id: rng.uuid(),
      name: `${sat.constellation} ${date}`,
      description: `${sat.constellation} mosaic of ${fp.site.name}`,
      asset_type: 'mosaic',
      band_list: Object.values(sat.bands),
      centroid: fp.centroid,
      area_in_sq_m: fp.areaSqM,
      date,
      geometry: fp.polygon,
      path: `s3://eo-field-desk-assets/aois/${aoiId}/${id}.tif`,
      progress: status === 'success' ? 100 : status === 'pending' ? 0 : rng.int(1, 99),
      status,
      created_at: micro(t.created),
      updated_at: micro(t.updated),
    };
  },
  (rng) => ({ id: rng.uuid() }),
);

export interface IndexPreset {
  readonly name: string;
  readonly description: string;
  readonly template: string;
  readonly expressionType: 'index' | 'composite' | 'grayscale';
  readonly rescale: number[];
  readonly colormap: string;
}

export const INDEX_PRESETS: readonly IndexPreset[] = [
  {
    name: 'NDVI',
    description: 'Normalized difference vegetation index',
    template: '(nir - red) / (nir + red)',
    expressionType: 'index',
    rescale: [-1, 1],
    colormap: 'RdYlGn',
  },
  {
    name: 'NDWI',
    description: 'Normalized difference water index',
    template: '(green - nir) / (green + nir)',
    expressionType: 'index',
    rescale: [-1, 1],
    colormap: 'Blues',
  },
  {
    name: 'True colour',
    description: 'Red, green, blue composite',
    template: 'red, green, blue',
    expressionType: 'composite',
    rescale: [0, 3000],
    colormap: 'none',
  },
  {
    name: 'Near infrared',
    description: 'Near-infrared reflectance',
    template: 'nir',
    expressionType: 'grayscale',
    rescale: [0, 5000],
    colormap: 'gray',
  },
];

/** An index preset's expression written with a satellite's band identifiers. */
export function presetExpression(template: string, sat: SatelliteProfile): string {
  return template.replace(/\b(blue|green|red|nir)\b/g, (role) => sat.bands[role as 'red']);
}

export const buildSpectralIndex = defineBuilder<SpectralIndex, In<typeof SpectralIndex>>(
  (rng) => {
    const sat = rng.pick(SATELLITES);
    const preset = rng.pick(INDEX_PRESETS);
    const expression = presetExpression(preset.template, sat);
    const t = timeline(rng);
    return {
      id: rng.uuid(),
      name: preset.name,
      description: preset.description,
      expression,
      expression_type: preset.expressionType,
      type: rng.pick(['custom', 'preset'] as const),
      rescale: [...preset.rescale],
      colormap: preset.colormap,
      satellite_id: sat.satelliteId,
      bands: parseExpression(expression).bands,
      org_id: orgId(rng),
      user_id: userId(rng),
      created_at: micro(t.created),
      updated_at: micro(t.updated),
    };
  },
  (rng) => ({
    id: rng.uuid(),
    name: 'NDVI',
    expression: '(B08 - B04) / (B08 + B04)',
    expression_type: 'index',
    type: 'preset',
  }),
);

/** A visualization whose assets belong to its AOI and point back at it. */
export const buildVisualization = defineBuilder<Visualization, In<typeof Visualization>>(
  (rng, o) => {
    const id = o.id ?? rng.uuid();
    const aoiId = o.aoi_id ?? rng.uuid();
    const sat = rng.pick(SATELLITES);
    const preset = rng.pick(INDEX_PRESETS);
    const status = o.status ?? rng.pick(VISUALIZATION_STATUSES);
    const t = timeline(rng);
    return {
      id,
      aoi_id: aoiId,
      index_id: rng.uuid(),
      index_name: preset.name,
      expression: presetExpression(preset.template, sat),
      expression_type: preset.expressionType,
      type: 'custom',
      rescale: [...preset.rescale],
      progress:
        status === 'success' ? 100 : status === 'creating' ? rng.int(0, 99) : rng.int(1, 99),
      status,
      assets: Array.from({ length: rng.int(1, 3) }, () =>
        buildAsset({ aoi_id: aoiId, visualization_id: id, asset_type: 'index' }, { rng }),
      ),
      tenant_id: orgId(rng),
      user_id: userId(rng),
      created_at: micro(t.created),
      updated_at: micro(t.updated),
    };
  },
  (rng) => ({ id: rng.uuid(), aoi_id: rng.uuid(), status: 'creating' }),
);

// --- catalog records ----------------------------------------------------------------------------

function stacLinks(base: string, collection: string, itemId: string): Link[] {
  return [
    {
      href: `${base}/collections/${collection}/items/${itemId}`,
      rel: 'self',
      title: itemId,
      type: 'application/geo+json',
    },
    {
      href: `${base}/collections/${collection}`,
      rel: 'collection',
      title: collection,
      type: 'application/json',
    },
    {
      href: `${base}/collections/${collection}`,
      rel: 'parent',
      title: collection,
      type: 'application/json',
    },
    { href: `${base}/`, rel: 'root', title: 'EO catalog', type: 'application/json' },
  ];
}

function stacAssets(base: string, itemId: string) {
  return {
    visual: {
      href: `${base}/${itemId}/visual.tif`,
      type: 'image/tiff; application=geotiff; profile=cloud-optimized',
      title: 'Visual (RGB)',
      roles: ['visual'],
    },
    analytic: {
      href: `${base}/${itemId}/analytic_sr.tif`,
      type: 'image/tiff; application=geotiff; profile=cloud-optimized',
      title: 'Surface reflectance',
      roles: ['data', 'reflectance'],
    },
    thumbnail: {
      href: `${base}/${itemId}/thumb.png`,
      type: 'image/png',
      title: 'Thumbnail',
      roles: ['thumbnail'],
    },
  };
}

const STAC_EXTENSIONS = [
  'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
  'https://stac-extensions.github.io/view/v1.0.0/schema.json',
  'https://stac-extensions.github.io/sat/v1.0.0/schema.json',
  'https://stac-extensions.github.io/projection/v1.1.0/schema.json',
  'https://stac-extensions.github.io/scientific/v1.0.0/schema.json',
];

function projGrid(fp: { bbox: readonly number[] }, gsd: number) {
  const rows = Math.max(1, Math.round(((fp.bbox[3]! - fp.bbox[1]!) * 110_574) / gsd));
  const cols = Math.max(1, Math.round(((fp.bbox[2]! - fp.bbox[0]!) * 85_000) / gsd));
  const x0 = 300_000 + Math.round(Math.abs(fp.bbox[0]! % 6) * 60_000);
  const y0 = Math.round(Math.abs(fp.bbox[3]!) * 110_574);
  return { shape: [rows, cols], transform: [gsd, 0, x0, 0, -gsd, y0, 0, 0, 1] };
}

/** One acquisition: a satellite, a scene footprint and its time. */
interface Scene {
  readonly sat: SatelliteProfile;
  readonly fp: Footprint;
  readonly at: Instant;
}

function randomScene(rng: Rng, sat: SatelliteProfile = rng.pick(SATELLITES)): Scene {
  const fp = buildFootprint(rng, { widthKm: rng.float(5, 20, 2), heightKm: rng.float(5, 20, 2) });
  return { sat, fp, at: randomInstant(rng) };
}

/** Every property key of spec 2.10, consistent with the scene. */
function catalogPropertiesOf(rng: Rng, { sat, fp, at }: Scene): CatalogProperties {
  const grid = projGrid(fp, sat.gsd);
  const offNadir = rng.float(0, 30, 1);
  return {
    constellation: sat.constellation,
    created: iso(addMinutes(at, rng.int(30, 600))),
    datetime: iso(at),
    'eo:cloud_cover': rng.float(0, 100, 1),
    gsd: sat.gsd,
    'proj:epsg': fp.epsg,
    'sat:relative_orbit': rng.int(1, 143),
    'view:off_nadir': offNadir,
    'view:satellite_look_angle': Math.round(offNadir * 0.9 * 10) / 10,
    'view:sun_azimuth': rng.float(90, 220, 1),
    'view:sun_elevation': rng.float(15, 70, 1),
    instruments: [...sat.instruments],
    platform: sat.platform,
    'proj:wkt2': `PROJCRS["WGS 84 / UTM zone ${fp.epsg % 100}${fp.epsg < 32700 ? 'N' : 'S'}",BASEGEOGCRS["WGS 84",DATUM["World Geodetic System 1984",ELLIPSOID["WGS 84",6378137,298.257223563]]],ID["EPSG",${fp.epsg}]]`,
    'sat:orbit_state': rng.pick(['ascending', 'descending']),
    'sci:doi': `10.5281/zenodo.${rng.int(1_000_000, 9_999_999)}`,
    updated: iso(addMinutes(at, rng.int(600, 6000))),
    'proj:shape': grid.shape,
    'proj:transform': grid.transform,
  };
}

/** Every property key of spec 2.10. */
export const buildCatalogProperties = defineBuilder<
  CatalogProperties,
  In<typeof CatalogProperties>
>(
  (rng) => catalogPropertiesOf(rng, randomScene(rng)),
  () => ({}),
);

/** A full STAC item (spec 2.10 "details"). */
export const buildStacItem = defineBuilder<StacItem, In<typeof StacItem>>(
  (rng) => {
    const scene = randomScene(rng);
    const { sat, fp, at } = scene;
    const id = stacItemId(rng, sat, at);
    const base = 'https://catalog.eo-field-desk.example/v0';
    return {
      assets: stacAssets('https://data.eo-field-desk.example/items', id),
      bbox: [...fp.bbox],
      collection: sat.collectionId,
      geometry: fp.polygon,
      id,
      links: stacLinks(base, sat.collectionId, id),
      properties: catalogPropertiesOf(rng, scene),
      stac_extensions: [...STAC_EXTENSIONS],
      stac_version: '1.0.0',
      type: 'Feature',
    };
  },
  (rng) => ({
    assets: {},
    geometry: null,
    id: `item_${rng.hex(8)}`,
    properties: {},
    type: 'Feature',
  }),
);

export const buildCatalogRecord = defineBuilder<CatalogRecord, In<typeof CatalogRecord>>(
  (rng) => {
    const details = buildStacItem({}, { rng });
    const t = timeline(rng);
    const by = userId(rng);
    const fpArea = details.bbox
      ? (details.bbox[2]! - details.bbox[0]!) * (details.bbox[3]! - details.bbox[1]!) * 1e4 * 0.8
      : 25;
    return {
      id: rng.uuid(),
      area: Math.round(fpArea * 100) / 100,
      bandset_id: `${details.properties.constellation ?? 'eo'}-4b`,
      task_id: rng.uuid(),
      org_id: orgId(rng),
      delivery_status: 'SUCCESSFUL',
      details,
      created_at: iso(t.created),
      updated_at: iso(t.updated),
      created_by: by,
      updated_by: by,
    };
  },
  (rng) => ({ id: rng.uuid(), details: buildStacItem.minimal({}, { rng }) }),
);

// --- archive collection items -------------------------------------------------------------------

/** Every property key of spec 2.11, consistent with the scene. */
function archivePropertiesOf(rng: Rng, { sat, fp, at }: Scene): ArchiveProperties {
  const grid = projGrid(fp, sat.gsd);
  const level = rng.pick(['L1B', 'L2A', 'L3A']);
  return {
    altitude: sat.altitude,
    'eo:cloud_cover': rng.float(0, 100, 1),
    gsd: sat.gsd,
    'rd:anomalous_pixels': rng.float(0, 0.02, 4),
    'rd:earth_sun_distance': rng.float(0.983, 1.017, 4),
    'view:off_nadir': rng.float(0, 30, 1),
    'view:scene_center_lat': fp.centroid[1],
    'view:scene_center_lon': fp.centroid[0],
    'view:sun_azimuth': rng.float(90, 220, 1),
    'view:sun_elevation': rng.float(15, 70, 1),
    constellation: sat.constellation,
    created: iso(addMinutes(at, rng.int(30, 600))),
    datetime: iso(at),
    description: `${sat.platform} ${level} scene over ${fp.site.name}`,
    license: 'proprietary',
    platform: sat.platform,
    'proj:code': `EPSG:${fp.epsg}`,
    'rd:product_level': level,
    'rd:sat_id': sat.satelliteId,
    'rd:type': 'instrument',
    'sci:doi': `10.5281/zenodo.${rng.int(1_000_000, 9_999_999)}`,
    startdatetime: iso(addMinutes(at, -1)),
    title: `${sat.platform} ${iso(at).slice(0, 10)}`,
    updated: iso(addMinutes(at, rng.int(600, 6000))),
    instruments: [...sat.instruments],
    'proj:shape': grid.shape,
    'proj:transform': grid.transform,
  };
}

/** Every property key of spec 2.11. */
export const buildArchiveProperties = defineBuilder<
  ArchiveProperties,
  In<typeof ArchiveProperties>
>(
  (rng) => archivePropertiesOf(rng, randomScene(rng)),
  () => ({}),
);

/** An archive feature; its bbox holds numeric strings, as in the spec's sample. */
export const buildArchiveFeature = defineBuilder<ArchiveFeature, In<typeof ArchiveFeature>>(
  (rng, o) => {
    // A feature of a known collection is imaged by that collection's satellite.
    const sat = SATELLITES.find((s) => s.collectionId === o.collection) ?? rng.pick(SATELLITES);
    const collection = o.collection ?? sat.collectionId;
    const scene = randomScene(rng, sat);
    const id = stacItemId(rng, sat, scene.at);
    return {
      id,
      type: 'Feature',
      collection,
      stac_version: '1.0.0',
      stac_extensions: [...STAC_EXTENSIONS],
      bbox: scene.fp.bbox.map((v) => String(v)),
      geometry: scene.fp.polygon,
      assets: stacAssets('https://archive.eo-field-desk.example/items', id),
      links: stacLinks('https://archive.eo-field-desk.example/v0/archives', collection, id),
      properties: archivePropertiesOf(rng, scene),
    };
  },
  (rng) => ({ id: `item_${rng.hex(8)}`, type: 'Feature', geometry: null, properties: {} }),
);

/** 2-4 features of one collection, with self and next links. */
export const buildArchiveFeatureCollection = defineBuilder<
  ArchiveFeatureCollection,
  In<typeof ArchiveFeatureCollection>
>(
  (rng) => {
    const collection = rng.pick(SATELLITES).collectionId;
    const base = `https://api.eo-field-desk.example/v0/archives/collections/${collection}/items`;
    return {
      type: 'FeatureCollection',
      features: Array.from({ length: rng.int(2, 4) }, () =>
        buildArchiveFeature({ collection }, { rng }),
      ),
      links: [
        {
          href: `${base}?limit=10&offset=0`,
          rel: 'self',
          title: 'This page',
          type: 'application/geo+json',
        },
        {
          href: `${base}?limit=10&offset=10`,
          rel: 'next',
          title: 'Next page',
          type: 'application/geo+json',
        },
      ],
    };
  },
  () => ({ type: 'FeatureCollection', features: [] }),
);

// --- deliveries and jobs ------------------------------------------------------------------------

export const buildDelivery = defineBuilder<Delivery, In<typeof Delivery>>(
  (rng) => {
    const t = timeline(rng);
    const cd = cloudDelivery(rng);
    const catalogId = rng.uuid();
    const by = userId(rng);
    return {
      delivery_id: rng.uuid(),
      catalog_id: catalogId,
      task_id: rng.uuid(),
      cloud_delivery: cd,
      status: rng.pick(DELIVERY_STATUSES),
      target_path: `${cd.path}${catalogId}/`,
      created_at: iso(t.created),
      updated_at: iso(t.updated),
      created_by: by,
      updated_by: by,
    };
  },
  (rng) => ({ delivery_id: rng.uuid(), status: 'PENDING' }),
);

export const buildValError = defineBuilder<ValError, In<typeof ValError>>(
  (rng) => {
    const [from, to] = rng.sample(['reader', 'cloud_mask', 'ndvi', 'zonal_stats', 'writer'], 2);
    return {
      from: from!,
      to: to!,
      err: `port ${rng.int(0, 3)}: incompatible port types`,
      reason: `${from} outputs a raster but ${to} expects a vector`,
      component_name: to!,
    };
  },
  () => ({}),
);

/** Bytes of an ASCII string, the way the spec's integer arrays carry raw data. */
export function asciiBytes(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0) & 0x7f);
}

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((v) => String(v).padStart(2, '0')).join(':');
}

const BLOCKS = [
  { name: 'scene-reader', version: '1.4.2' },
  { name: 'cloud-mask', version: '2.0.1' },
  { name: 'ndvi', version: '1.1.0' },
  { name: 'zonal-stats', version: '0.9.3' },
];

export const buildJobTask = defineBuilder<JobTask, In<typeof JobTask>>(
  (rng) => {
    const block = rng.pick(BLOCKS);
    const t = timeline(rng);
    const took = rng.int(5, 900);
    const finished = addMinutes(t.created, Math.ceil(took / 60));
    const status = rng.pick(JOB_TASK_STATUSES);
    return {
      id: rng.uuid(),
      name: block.name,
      status,
      state_msg: status === 'FAILED' ? 'block exited with code 1' : 'ok',
      time_taken: duration(took),
      created_at: iso(t.created),
      updated_at: iso(finished),
      finished_at: iso(finished),
      recv_time: iso(addMinutes(t.created, 0)),
      send_time: iso(finished),
      block_inf_start_time: iso(addMinutes(t.created, 0)),
      block_inf_end_time: iso(finished),
      err_msg: status === 'FAILED' ? 'out of memory while reading tile 12' : '',
      failure_type: status === 'FAILED' ? 'resource' : '',
      info_logs: asciiBytes(`${block.name}: processed ${rng.int(1, 64)} tiles`),
      inputs: asciiBytes(`{"tiles":${rng.int(1, 64)}}`),
      result: asciiBytes('{"ok":true}'),
      depends_on: rng.bool() ? [rng.uuid()] : [],
      disclaimer: ['Results are provisional until quality control completes.'],
      estimated_time_duration: took + rng.int(-5, 60),
      progress: status === 'SUCCEEDED' ? 100 : rng.float(0, 99, 1),
      block_info: { id: rng.uuid(), name: block.name, version: block.version },
    };
  },
  (rng) => ({ id: rng.uuid() }),
);

export const buildJob = defineBuilder<Job, In<typeof Job>>(
  (rng) => {
    const t = timeline(rng);
    const status = rng.pick(JOB_STATUSES);
    const took = rng.int(30, 3600);
    const finished = addMinutes(t.created, Math.ceil(took / 60));
    const spec = { blocks: BLOCKS.map((b) => b.name), region: rng.pick(['eu', 'us', 'ap']) };
    return {
      id: rng.uuid(),
      workflow_id: rng.uuid(),
      created_by: userId(rng),
      status,
      progress: status === 'SUCCEEDED' ? '100' : String(rng.int(0, 99)),
      time_taken: duration(took),
      estimated_duration: took + rng.int(-20, 120),
      cost: rng.int(1, 500),
      spec: asciiBytes(JSON.stringify(spec)),
      tasks: Array.from({ length: rng.int(1, 3) }, () => buildJobTask({}, { rng })),
      val_errors: status === 'FAILED' ? [buildValError({}, { rng })] : [],
      created_at: iso(t.created),
      updated_at: iso(finished),
      finished_at: iso(finished),
      exec_created_at: iso(addMinutes(t.created, 1)),
      exec_updated_at: iso(finished),
    };
  },
  (rng) => ({ id: rng.uuid(), workflow_id: rng.uuid(), status: 'QUEUED' }),
);

/** A polygon footprint over land, for tests that need only a geometry. */
export function buildPolygon(
  options: BuildOptions & { widthKm?: number; heightKm?: number } = {},
): FootprintPolygon {
  const { widthKm, heightKm } = options;
  return buildFootprint(rngOf(options), {
    ...(widthKm !== undefined ? { widthKm } : {}),
    ...(heightKm !== undefined ? { heightKm } : {}),
  }).polygon;
}
