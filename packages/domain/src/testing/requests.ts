/**
 * Builders of request bodies (spec part 4). They return the wire (input) shape, ready to send;
 * each one parses with its request schema. Realistic variants set every field the item kind
 * allows; minimal variants only the fields our rules require.
 */
import type { z } from 'zod';
import { DELIVERY_SPEEDS, USECASES } from '../known-values';
import type {
  CreateAoiRequest,
  CreateIndexRequest,
  CreateVisualizationRequest,
  DeliveryRequestInput,
} from '../requests/creates';
import type { CreateDeliveriesRequest } from '../requests/creates';
import type { CreateOrderRequestInput, OrderItemInput } from '../requests/orders';
import type { SatelliteSearchRequest } from '../requests/satellite-search';
import type { CatalogSearchRequestInput } from '../search/request';
import { defineBuilder } from './builder';
import { INDEX_PRESETS, presetExpression } from './resources';
import { instantFromParts } from '../time/instant';
import type { Rng } from './rng';
import { SATELLITES, addDays, buildFootprint, isoSeconds, randomInstant } from './world';

type In<T extends z.ZodType> = z.input<T>;
type OrderItemBody = In<typeof OrderItemInput>;

const projectId = (rng: Rng) => `prj_${rng.hex(10)}`;

function featureCollection(rng: Rng, named: boolean) {
  const fp = buildFootprint(rng);
  return {
    type: 'FeatureCollection' as const,
    features: [
      named
        ? { type: 'Feature' as const, geometry: fp.polygon, properties: { name: fp.site.name } }
        : { type: 'Feature' as const, geometry: fp.polygon },
    ],
  };
}

const WINDOW_FROM = instantFromParts({
  year: 2025,
  month: 1,
  day: 1,
  hour: 0,
  minute: 0,
  second: 0,
  micro: 0,
});

/** A start in the first half of 2025 and an end 7-45 days later (RFC 3339, whole seconds, Z). */
function window(rng: Rng) {
  const start = randomInstant(rng, WINDOW_FROM);
  const end = addDays(start, rng.int(7, 45));
  return { start_date: isoSeconds(start), end_date: isoSeconds(end) };
}

function itemIds(rng: Rng, n: number): string[] {
  const sat = rng.pick(SATELLITES);
  return Array.from({ length: n }, () => {
    const d = isoSeconds(randomInstant(rng));
    return `${sat.platform}_${d.slice(0, 10).replaceAll('-', '')}_${d.slice(11, 19).replaceAll(':', '')}_${rng.hex(4)}`;
  });
}

function optionalFields(rng: Rng) {
  const sat = rng.pick(SATELLITES);
  return {
    cloud_cover: rng.int(5, 30),
    off_nadir: rng.int(10, 30),
    bandset: { bandset_id: `${sat.constellation}-4b` },
    delivery_speed: rng.pick(DELIVERY_SPEEDS),
    usecase: rng.pick(USECASES),
    cloud_delivery: {
      config: rng.pick(['aws-s3-eu-west-1', 'gcs-europe-west4']),
      path: `s3://field-desk-deliveries/${rng.hex(8)}/`,
    },
  };
}

// --- order items (4.8) --------------------------------------------------------------------------

/** TASKING: no item_ids, recurrence ONCE (or none), start and end dates. */
export const buildTaskingOrderItemInput = defineBuilder<OrderItemBody>(
  (rng) => ({
    project_id: projectId(rng),
    name: `Tasking ${rng.hex(4)}`,
    geometry: featureCollection(rng, true),
    recurrence: 'ONCE',
    ...window(rng),
    no_of_occurrences: 1,
    ...optionalFields(rng),
  }),
  (rng) => ({
    project_id: projectId(rng),
    name: `Tasking ${rng.hex(4)}`,
    geometry: featureCollection(rng, false),
    ...window(rng),
  }),
);

/** ARCHIVE: item_ids given; may carry ONCE and a search window. */
export const buildArchiveOrderItemInput = defineBuilder<OrderItemBody>(
  (rng) => ({
    project_id: projectId(rng),
    name: `Archive ${rng.hex(4)}`,
    geometry: featureCollection(rng, true),
    recurrence: 'ONCE',
    ...window(rng),
    no_of_occurrences: 1,
    ...optionalFields(rng),
    item_ids: itemIds(rng, rng.int(1, 3)),
  }),
  (rng) => ({
    project_id: projectId(rng),
    name: `Archive ${rng.hex(4)}`,
    geometry: featureCollection(rng, false),
    item_ids: itemIds(rng, 1),
  }),
);

/** RECURRING: a recurrence other than ONCE, dates and a number of occurrences. */
export const buildRecurringOrderItemInput = defineBuilder<OrderItemBody>(
  (rng) => ({
    project_id: projectId(rng),
    name: `Monitoring ${rng.hex(4)}`,
    geometry: featureCollection(rng, true),
    recurrence: rng.pick(['DAILY', 'WEEKLY', 'MONTHLY'] as const),
    ...window(rng),
    no_of_occurrences: rng.int(2, 12),
    ...optionalFields(rng),
  }),
  (rng) => ({
    project_id: projectId(rng),
    name: `Monitoring ${rng.hex(4)}`,
    geometry: featureCollection(rng, false),
    recurrence: 'WEEKLY',
    ...window(rng),
    no_of_occurrences: 4,
  }),
);

/** Realistic: one tasking, one archive and one recurring item, dry_run false. */
export const buildCreateOrderRequest = defineBuilder<CreateOrderRequestInput>(
  (rng) => ({
    order_items: [
      buildTaskingOrderItemInput({}, { rng }),
      buildArchiveOrderItemInput({}, { rng }),
      buildRecurringOrderItemInput({}, { rng }),
    ],
    dry_run: false,
  }),
  (rng) => ({ order_items: [buildTaskingOrderItemInput.minimal({}, { rng })] }),
);

// --- other creates ------------------------------------------------------------------------------

export const buildCreateAoiRequest = defineBuilder<In<typeof CreateAoiRequest>>(
  (rng) => {
    const sat = rng.pick(SATELLITES);
    const fp = buildFootprint(rng, {
      widthKm: rng.float(0.5, 5, 2),
      heightKm: rng.float(0.5, 5, 2),
    });
    return {
      name: `${fp.site.name} block ${rng.int(1, 40)}`,
      description: `Fields monitored near ${fp.site.name}`,
      satellite_id: sat.satelliteId,
      provider: sat.provider,
      project_id: projectId(rng),
      geometry: fp.polygon,
      item_ids: itemIds(rng, rng.int(2, 4)),
    };
  },
  (rng) => ({
    name: 'AOI',
    description: '',
    satellite_id: rng.pick(SATELLITES).satelliteId,
    provider: 'esa',
    project_id: projectId(rng),
    geometry: buildFootprint(rng, { widthKm: 1, heightKm: 1 }).polygon,
    item_ids: itemIds(rng, 1),
  }),
);

export const buildCreateIndexRequest = defineBuilder<In<typeof CreateIndexRequest>>(
  (rng) => {
    const sat = rng.pick(SATELLITES);
    const preset = rng.pick(INDEX_PRESETS);
    return {
      name: `${preset.name} ${sat.constellation}`,
      description: preset.description,
      rescale: [...preset.rescale],
      expression: presetExpression(preset.template, sat),
      colormap: preset.colormap,
      satellite_id: sat.satelliteId,
      expression_type: preset.expressionType,
      type: rng.pick(['custom', 'preset'] as const),
    };
  },
  (rng) => ({
    name: 'NIR',
    description: '',
    rescale: [0],
    expression: rng.pick(SATELLITES).bands.nir,
    colormap: 'gray',
    satellite_id: 'sentinel-2b',
    expression_type: 'grayscale',
    type: 'custom',
  }),
);

export const buildCreateVisualizationRequest = defineBuilder<In<typeof CreateVisualizationRequest>>(
  (rng) => ({
    index_id: rng.uuid(),
    src_asset_ids: Array.from({ length: rng.int(2, 4) }, () => rng.uuid()),
  }),
  (rng) => ({ index_id: rng.uuid(), src_asset_ids: [rng.uuid()] }),
);

/** One delivery request: catalog ids (realistic and minimal); override to use order_item_ids. */
export const buildDeliveryRequestInput = defineBuilder<In<typeof DeliveryRequestInput>>(
  (rng) => ({
    catalog_ids: Array.from({ length: rng.int(1, 3) }, () => rng.uuid()),
    cloud_info: {
      config: rng.pick(['aws-s3-eu-west-1', 'gcs-europe-west4']),
      path: `s3://field-desk-deliveries/${rng.hex(8)}/`,
    },
  }),
  (rng) => ({
    catalog_ids: [rng.uuid()],
    cloud_info: { config: 'aws-s3-eu-west-1', path: 's3://bucket/' },
  }),
);

/** Realistic: one request by catalog ids and one by order item ids. */
export const buildCreateDeliveriesRequest = defineBuilder<In<typeof CreateDeliveriesRequest>>(
  (rng) => {
    const byCatalog = buildDeliveryRequestInput({}, { rng });
    const byItems = buildDeliveryRequestInput({}, { rng });
    return {
      deliveries: [
        byCatalog,
        { order_item_ids: byItems.catalog_ids ?? [rng.uuid()], cloud_info: byItems.cloud_info },
      ],
    };
  },
  (rng) => ({ deliveries: [buildDeliveryRequestInput.minimal({}, { rng })] }),
);

// --- searches -----------------------------------------------------------------------------------

export const buildSatelliteSearchRequest = defineBuilder<In<typeof SatelliteSearchRequest>>(
  (rng) => {
    const sat = rng.pick(SATELLITES);
    return {
      satellite: { collection_id: sat.collectionId, satellite_id: sat.satelliteId },
      ...window(rng),
      filters: [
        { id: 'eo:cloud_cover', min: 0, max: rng.int(10, 40) },
        { id: 'view:off_nadir', max: rng.int(10, 30) },
      ],
      geometry: buildFootprint(rng).polygon,
      skip: 0,
      limit: rng.pick([10, 25, 50]),
    };
  },
  (rng) => {
    const sat = rng.pick(SATELLITES);
    return { satellite: { collection_id: sat.collectionId, satellite_id: sat.satelliteId } };
  },
);

/**
 * Realistic: every field except `intersects`, which may not be combined with `bbox`
 * (override `{ bbox: undefined, intersects: ... }` to search by geometry).
 */
export const buildCatalogSearchRequest = defineBuilder<CatalogSearchRequestInput>(
  (rng) => {
    const fp = buildFootprint(rng);
    const { start_date, end_date } = window(rng);
    return {
      bbox: [...fp.bbox],
      collections: rng.sample(
        SATELLITES.map((s) => s.collectionId),
        2,
      ),
      datetime: `${start_date}/${end_date}`,
      ids: [rng.uuid()],
      item_ids: itemIds(rng, 2),
      limit: 50,
      offset: 0,
      order_ids: [rng.uuid()],
      order_item_ids: [rng.uuid(), rng.uuid()],
      query: {
        'eo:cloud_cover': { lt: rng.int(10, 40) },
        'view:off_nadir': { lte: 25 },
        platform: {
          eq: rng.sample(
            SATELLITES.map((s) => s.platform),
            2,
          ),
        },
        datetime: { gte: start_date },
      },
      sort_by: [
        { field: 'properties.datetime', direction: 'desc' },
        { field: 'eo:cloud_cover', direction: 'asc' },
      ],
    };
  },
  () => ({}),
);
