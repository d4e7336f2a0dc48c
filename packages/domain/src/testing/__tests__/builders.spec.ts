import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import {
  Aoi,
  ArchiveFeature,
  ArchiveFeatureCollection,
  ArchiveProperties,
  Asset,
  CatalogProperties,
  CatalogRecord,
  CatalogSearchRequest,
  CreateAoiRequest,
  CreateDeliveriesRequest,
  CreateIndexRequest,
  CreateOrderRequest,
  CreateVisualizationRequest,
  Delivery,
  DeliveryRequestInput,
  Job,
  JobTask,
  Order,
  OrderItem,
  OrderItemInput,
  SatelliteSearchRequest,
  SpectralIndex,
  StacItem,
  Task,
  ValError,
  Visualization,
  assetDate,
  bboxNumbers,
  checkExpression,
  isoTimestamp,
  microTimestamp,
  orderItemTypeOf,
  parseExpression,
  taskDate,
} from '../../index';
import { clone, parseOk, shapeKeys } from '../../__tests__/support';
import {
  type BuildOptions,
  LAND_SITES,
  SATELLITES,
  buildAoi,
  buildArchiveFeature,
  buildArchiveFeatureCollection,
  buildArchiveOrderItemInput,
  buildArchiveProperties,
  buildAsset,
  buildCatalogProperties,
  buildCatalogRecord,
  buildCatalogSearchRequest,
  buildCreateAoiRequest,
  buildCreateDeliveriesRequest,
  buildCreateIndexRequest,
  buildCreateOrderRequest,
  buildCreateVisualizationRequest,
  buildDelivery,
  buildDeliveryRequestInput,
  buildJob,
  buildJobTask,
  buildOrder,
  buildOrderItem,
  buildPolygon,
  buildRecurringOrderItemInput,
  buildSatelliteSearchRequest,
  buildSpectralIndex,
  buildStacItem,
  buildTask,
  buildTaskingOrderItemInput,
  buildValError,
  buildVisualization,
  createRng,
} from '../index';

type Obj = Record<string, unknown>;
interface AnyBuilder {
  (overrides?: Obj, options?: BuildOptions): Obj;
  minimal(overrides?: Obj, options?: BuildOptions): Obj;
}
interface Entry {
  name: string;
  build: AnyBuilder;
  schema: z.ZodType;
  /** Schema keys the realistic variant leaves out on purpose. */
  notInRealistic?: string[];
}
const entry = (
  name: string,
  build: unknown,
  schema: z.ZodType,
  notInRealistic?: string[],
): Entry => ({
  name,
  build: build as AnyBuilder,
  schema,
  ...(notInRealistic ? { notInRealistic } : {}),
});

const RESOURCES: Entry[] = [
  entry('buildOrder', buildOrder, Order),
  entry('buildOrderItem', buildOrderItem, OrderItem),
  entry('buildTask', buildTask, Task),
  entry('buildAoi', buildAoi, Aoi),
  entry('buildAsset', buildAsset, Asset),
  entry('buildVisualization', buildVisualization, Visualization),
  entry('buildSpectralIndex', buildSpectralIndex, SpectralIndex),
  entry('buildCatalogProperties', buildCatalogProperties, CatalogProperties),
  entry('buildStacItem', buildStacItem, StacItem),
  entry('buildCatalogRecord', buildCatalogRecord, CatalogRecord),
  entry('buildArchiveProperties', buildArchiveProperties, ArchiveProperties),
  entry('buildArchiveFeature', buildArchiveFeature, ArchiveFeature),
  entry('buildArchiveFeatureCollection', buildArchiveFeatureCollection, ArchiveFeatureCollection),
  entry('buildDelivery', buildDelivery, Delivery),
  entry('buildJob', buildJob, Job),
  entry('buildJobTask', buildJobTask, JobTask),
  entry('buildValError', buildValError, ValError),
];

const REQUESTS: Entry[] = [
  // item_ids would make it an archive item.
  entry('buildTaskingOrderItemInput', buildTaskingOrderItemInput, OrderItemInput, ['item_ids']),
  entry('buildArchiveOrderItemInput', buildArchiveOrderItemInput, OrderItemInput),
  entry('buildRecurringOrderItemInput', buildRecurringOrderItemInput, OrderItemInput, ['item_ids']),
  entry('buildCreateOrderRequest', buildCreateOrderRequest, CreateOrderRequest),
  entry('buildCreateAoiRequest', buildCreateAoiRequest, CreateAoiRequest),
  entry('buildCreateIndexRequest', buildCreateIndexRequest, CreateIndexRequest),
  entry(
    'buildCreateVisualizationRequest',
    buildCreateVisualizationRequest,
    CreateVisualizationRequest,
  ),
  // One delivery request holds catalog ids or order item ids, never both.
  entry('buildDeliveryRequestInput', buildDeliveryRequestInput, DeliveryRequestInput, [
    'order_item_ids',
  ]),
  entry('buildCreateDeliveriesRequest', buildCreateDeliveriesRequest, CreateDeliveriesRequest),
  entry('buildSatelliteSearchRequest', buildSatelliteSearchRequest, SatelliteSearchRequest),
  // intersects may not be combined with bbox.
  entry('buildCatalogSearchRequest', buildCatalogSearchRequest, CatalogSearchRequest, [
    'intersects',
  ]),
];

const ALL = [...RESOURCES, ...REQUESTS];
const SEEDS = Array.from({ length: 25 }, (_, i) => i * 7919 + 1);

describe.each(ALL)('$name', ({ build, schema, notInRealistic = [] }) => {
  it('realistic: parses with its schema for many seeds, unchanged (no default or transform applies)', () => {
    for (const seed of SEEDS) {
      const value = build({}, { seed });
      expect(parseOk(schema, clone(value))).toEqual(value);
    }
  });

  it('realistic: sets every field of the schema', () => {
    const value = build();
    const missing = shapeKeys(schema).filter((k) => !(k in value) && !notInRealistic.includes(k));
    expect(missing).toEqual([]);
    for (const k of notInRealistic) expect(value).not.toHaveProperty(k);
  });

  it('minimal: parses, and holds only required fields (removing any one is rejected)', () => {
    for (const seed of SEEDS.slice(0, 5)) {
      const value = build.minimal({}, { seed });
      parseOk(schema, clone(value));
      for (const key of Object.keys(value)) {
        const without = clone(value);
        delete without[key];
        // An order item input without its recurrence is a valid item of another type.
        if (schema === OrderItemInput && key === 'recurrence') {
          expect(orderItemTypeOf(without)).not.toBe(orderItemTypeOf(value));
        }
        expect(
          schema.safeParse(without).success,
          `${key} is optional but in the minimal variant`,
        ).toBe(false);
      }
    }
  });

  it('is deterministic: same seed same object, other seed or shared rng another one', () => {
    expect(build({}, { seed: 42 })).toEqual(build({}, { seed: 42 }));
    expect(build.minimal({}, { seed: 42 })).toEqual(build.minimal({}, { seed: 42 }));
    expect(build()).toEqual(build({}, { seed: undefined }));
    if (Object.keys(build()).length > 0) {
      const distinct = (values: Obj[]) => new Set(values.map((v) => JSON.stringify(v))).size;
      expect(distinct(SEEDS.slice(0, 5).map((seed) => build({}, { seed })))).toBeGreaterThan(1);
      const rng = createRng(9);
      expect(distinct([1, 2, 3, 4, 5].map(() => build({}, { rng })))).toBeGreaterThan(1);
    }
  });

  it('applies overrides last, including unknown keys and undefined (left out)', () => {
    const [firstKey] = Object.keys(build());
    const overridden = build({ extra_field: 'kept' });
    expect(overridden.extra_field).toBe('kept');
    if (firstKey) {
      const dropped = build({ [firstKey]: undefined });
      expect(JSON.parse(JSON.stringify(dropped))).not.toHaveProperty(firstKey);
    }
  });
});

describe('builders never use Math.random', () => {
  afterEach(() => vi.restoreAllMocks());
  it('builds everything with Math.random throwing', () => {
    vi.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('Math.random called');
    });
    for (const { build } of ALL) {
      expect(() => build({}, { seed: 3 })).not.toThrow();
      expect(() => build.minimal({}, { seed: 3 })).not.toThrow();
    }
    expect(Math.random).not.toHaveBeenCalled();
  });
});

describe('createRng', () => {
  it('is mulberry32: a known first value for seed 1 and values in [0, 1)', () => {
    const rng = createRng(1);
    // mulberry32(1) reference: first output 0.6270739405881613.
    expect(rng.next()).toBeCloseTo(0.6270739405881613, 15);
    for (let i = 0; i < 1000; i++) {
      const v = rng.next();
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
  });

  it('int, float, pick, sample, uuid stay within their contracts', () => {
    const rng = createRng(5);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const n = rng.int(-2, 2);
      seen.add(n);
      expect(n).toBeGreaterThanOrEqual(-2);
      expect(n).toBeLessThanOrEqual(2);
      const f = rng.float(0.5, 10, 2);
      expect(f).toBeGreaterThanOrEqual(0.5);
      expect(f).toBeLessThan(10);
      expect(Math.round(f * 100) / 100).toBe(f);
    }
    expect([...seen].sort()).toEqual([-1, -2, 0, 1, 2]);
    expect(new Set(rng.sample([1, 2, 3, 4], 4)).size).toBe(4);
    expect(rng.uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(() => rng.pick([])).toThrow(RangeError);
  });
});

// --- realism ---------------------------------------------------------------------------------------

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const MICRO = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const DMY = /^\d{2}-\d{2}-\d{4}$/;
const YMD = /^\d{4}-\d{2}-\d{2}$/;

function expectIsoZ(v: unknown) {
  expect(v).toMatch(ISO_Z);
  isoTimestamp.parse(v as string);
}
function expectMicro(v: unknown) {
  expect(v).toMatch(MICRO);
  microTimestamp.parse(v as string);
}
function expectOrdered(a: unknown, b: unknown, codec: { parse(s: string): number }) {
  expect(codec.parse(a as string)).toBeLessThanOrEqual(codec.parse(b as string));
}

function expectRingOverLand(coordinates: unknown) {
  const rings = coordinates as number[][][];
  expect(rings.length).toBeGreaterThanOrEqual(1);
  for (const ring of rings) {
    expect(ring.length).toBeGreaterThanOrEqual(4);
    expect(ring[ring.length - 1]).toEqual(ring[0]);
    for (const [lon, lat] of ring) {
      const near = LAND_SITES.some(
        (s) => Math.abs(s.lon - lon!) < 0.4 && Math.abs(s.lat - lat!) < 0.3,
      );
      expect(near, `${lon},${lat} is not near a land site`).toBe(true);
    }
  }
}

describe('realistic values', () => {
  it.each(SEEDS)('seed %i: timestamps in each resource layout, ordered', (seed) => {
    const order = buildOrder({}, { seed });
    expectIsoZ(order.created_at);
    expectIsoZ(order.updated_at);
    expectIsoZ(order.paid_at);
    expectOrdered(order.created_at, order.updated_at, isoTimestamp);
    for (const item of order.order_items) {
      for (const k of [
        'created_at',
        'updated_at',
        'last_feasibility_check',
        'start_date',
        'end_date',
      ] as const) {
        expectIsoZ(item[k]);
      }
      expectOrdered(item.start_date, item.end_date, isoTimestamp);
      for (const occ of item.occurrences ?? []) {
        expectIsoZ(occ.start);
        expectIsoZ(occ.end);
        expectOrdered(occ.start, occ.end, isoTimestamp);
      }
      for (const task of item.tasks ?? []) {
        expect(task.start_date).toMatch(DMY);
        expect(task.end_date).toMatch(DMY);
        taskDate.parse(task.start_date!);
        expectIsoZ(task.created_at);
      }
    }
    const aoi = buildAoi({}, { seed });
    expectMicro(aoi.created_at);
    expectMicro(aoi.updated_at);
    expectOrdered(aoi.created_at, aoi.updated_at, microTimestamp);
    const asset = buildAsset({}, { seed });
    expectMicro(asset.created_at);
    expect(asset.date).toMatch(YMD);
    assetDate.parse(asset.date!);
    const vis = buildVisualization({}, { seed });
    expectMicro(vis.created_at);
    for (const a of vis.assets ?? []) expectMicro(a.updated_at);
    expectMicro(buildSpectralIndex({}, { seed }).created_at);
    const rec = buildCatalogRecord({}, { seed });
    expectIsoZ(rec.created_at);
    expectIsoZ(rec.details.properties.datetime);
    expectIsoZ(rec.details.properties.created);
    expectIsoZ(rec.details.properties.updated);
    const delivery = buildDelivery({}, { seed });
    expectIsoZ(delivery.created_at);
    expectOrdered(delivery.created_at, delivery.updated_at, isoTimestamp);
    const archive = buildArchiveFeature({}, { seed });
    expectIsoZ(archive.properties.datetime);
    expectIsoZ(archive.properties.startdatetime);
    const job = buildJob({}, { seed });
    expectIsoZ(job.created_at);
    expectIsoZ(job.finished_at);
  });

  it.each(SEEDS)('seed %i: footprints over land, cloud cover 0-100, gsd 0.5-10 m', (seed) => {
    const rec = buildCatalogRecord({}, { seed });
    expect(rec.details.geometry?.type).toBe('Polygon');
    expectRingOverLand((rec.details.geometry as { coordinates: unknown }).coordinates);
    const [w, s, e, n] = rec.details.bbox!;
    expect(w).toBeLessThan(e!);
    expect(s).toBeLessThan(n!);
    for (const props of [rec.details.properties, buildArchiveFeature({}, { seed }).properties]) {
      expect(props['eo:cloud_cover']).toBeGreaterThanOrEqual(0);
      expect(props['eo:cloud_cover']).toBeLessThanOrEqual(100);
      expect(props.gsd).toBeGreaterThanOrEqual(0.5);
      expect(props.gsd).toBeLessThanOrEqual(10);
      expect(props['view:off_nadir']).toBeGreaterThanOrEqual(0);
      expect(props['view:off_nadir']).toBeLessThanOrEqual(45);
      expect(props['view:sun_elevation']).toBeGreaterThan(0);
      expect(props['view:sun_elevation']).toBeLessThanOrEqual(90);
    }
    const aoi = buildAoi({}, { seed });
    expectRingOverLand((aoi.geometry as { coordinates: unknown }).coordinates);
    expect(aoi.centroid).toHaveLength(2);
    expect(aoi.area_in_sq_m).toBeGreaterThan(0);
    expect(aoi.progress).toBeGreaterThanOrEqual(0);
    expect(aoi.progress).toBeLessThanOrEqual(100);
    const item = buildOrderItem({}, { seed });
    expect(item.cloud_cover).toBeGreaterThanOrEqual(0);
    expect(item.cloud_cover).toBeLessThanOrEqual(100);
    const fc = item.geometry as { features: { geometry: { coordinates: unknown } }[] };
    expectRingOverLand(fc.features[0]!.geometry.coordinates);
    expectRingOverLand(buildPolygon({ seed }).coordinates);
    for (const req of buildCreateOrderRequest({}, { seed }).order_items) {
      expectRingOverLand(
        (req.geometry.features[0]!.geometry as { coordinates: unknown }).coordinates,
      );
    }
  });

  it('children belong to their parents', () => {
    const order = buildOrder({ id: 'ord-1' });
    expect(order.order_items.length).toBeGreaterThan(0);
    for (const item of order.order_items) {
      expect(item.order_id).toBe('ord-1');
      expect(item.user_id).toBe(order.user_id);
      for (const task of item.tasks ?? []) expect(task.order_item_id).toBe(item.id);
    }
    expect(order.total_amount).toBeCloseTo(
      order.order_items.reduce((s, i) => s + (i.final_amount ?? 0), 0),
      2,
    );
    const vis = buildVisualization({ id: 'vis-1', aoi_id: 'aoi-1' });
    for (const a of vis.assets ?? []) {
      expect(a.aoi_id).toBe('aoi-1');
      expect(a.visualization_id).toBe('vis-1');
    }
    const fc = buildArchiveFeatureCollection({}, { seed: 4 });
    expect(new Set(fc.features.map((f) => f.collection)).size).toBe(1);
    const item = buildOrderItem({ type: 'ARCHIVE' });
    expect(item.tasks?.every((t) => t.type === 'ARCHIVE')).toBe(true);
    expect(item.images?.length).toBeGreaterThan(0);
    expect(item.number_of_bands).toBe(item.bandset?.bands?.length);
  });

  it('a scene is one acquisition: satellite, collection, footprint and times agree', () => {
    for (const seed of SEEDS) {
      const item = buildStacItem({}, { seed });
      const sat = SATELLITES.find((s) => s.collectionId === item.collection)!;
      expect(item.properties.platform).toBe(sat.platform);
      expect(item.properties.gsd).toBe(sat.gsd);
      const p = item.properties;
      expectOrdered(p.datetime, p.created, isoTimestamp);
      expectOrdered(p.created, p.updated, isoTimestamp);
      expect(item.id.startsWith(`${sat.platform}_`)).toBe(true);

      const fc = buildArchiveFeatureCollection({}, { seed });
      for (const f of fc.features) {
        const fsat = SATELLITES.find((s) => s.collectionId === f.collection)!;
        expect(f.properties.platform).toBe(fsat.platform);
        expect(f.properties['rd:sat_id']).toBe(fsat.satelliteId);
        const [w, s, e, n] = bboxNumbers(f.bbox)!;
        expect(f.properties['view:scene_center_lon']).toBeGreaterThan(w!);
        expect(f.properties['view:scene_center_lon']).toBeLessThan(e!);
        expect(f.properties['view:scene_center_lat']).toBeGreaterThan(s!);
        expect(f.properties['view:scene_center_lat']).toBeLessThan(n!);
        expect(f.properties.description).toContain(fsat.platform);
        expectOrdered(f.properties.startdatetime, f.properties.datetime, isoTimestamp);
      }

      for (const oi of buildOrder({}, { seed }).order_items) {
        const first = taskDate.parse(
          isoTimestamp
            .format(isoTimestamp.parse(oi.start_date!))
            .slice(0, 10)
            .split('-')
            .reverse()
            .join('-'),
        );
        for (const task of oi.tasks ?? []) {
          expect(taskDate.parse(task.start_date!)).toEqual(first);
          expectOrdered(oi.created_at, task.created_at, isoTimestamp);
        }
      }
    }
  });

  it('index and visualization expressions are valid for their type and satellite', () => {
    for (const seed of SEEDS) {
      const idx = buildSpectralIndex({}, { seed });
      const sat = SATELLITES.find((s) => s.satelliteId === idx.satellite_id)!;
      expect(
        checkExpression(idx.expression, idx.expression_type, Object.values(sat.bands)).problems,
      ).toEqual([]);
      expect(idx.bands).toEqual(parseExpression(idx.expression).bands);
      const vis = buildVisualization({}, { seed });
      expect(checkExpression(vis.expression!, vis.expression_type!).problems).toEqual([]);
      const body = buildCreateIndexRequest({}, { seed });
      expect(checkExpression(body.expression, body.expression_type).problems).toEqual([]);
    }
  });

  it('archive bbox holds numeric strings, as in the spec sample', () => {
    const f = buildArchiveFeature();
    expect(f.bbox?.every((v) => typeof v === 'string')).toBe(true);
    const nums = bboxNumbers(f.bbox)!;
    expect(nums.every(Number.isFinite)).toBe(true);
    expect(nums[0]).toBeLessThan(nums[2]!);
  });

  it('order item inputs derive the intended type', () => {
    for (const seed of SEEDS) {
      expect(orderItemTypeOf(buildTaskingOrderItemInput({}, { seed }))).toBe('TASKING');
      expect(orderItemTypeOf(buildTaskingOrderItemInput.minimal({}, { seed }))).toBe('TASKING');
      expect(orderItemTypeOf(buildArchiveOrderItemInput({}, { seed }))).toBe('ARCHIVE');
      expect(orderItemTypeOf(buildArchiveOrderItemInput.minimal({}, { seed }))).toBe('ARCHIVE');
      expect(orderItemTypeOf(buildRecurringOrderItemInput({}, { seed }))).toBe('RECURRING');
      expect(orderItemTypeOf(buildRecurringOrderItemInput.minimal({}, { seed }))).toBe('RECURRING');
    }
    const order = buildCreateOrderRequest();
    expect(order.order_items.map(orderItemTypeOf)).toEqual(['TASKING', 'ARCHIVE', 'RECURRING']);
  });

  it('deliveries request: one by catalog ids, one by order item ids', () => {
    const { deliveries } = buildCreateDeliveriesRequest();
    expect(deliveries[0]!.catalog_ids?.length).toBeGreaterThan(0);
    expect(deliveries[0]!.order_item_ids).toBeUndefined();
    expect(deliveries[1]!.order_item_ids?.length).toBeGreaterThan(0);
    expect(deliveries[1]!.catalog_ids).toBeUndefined();
  });

  it('catalog search by geometry: override bbox away and give intersects', () => {
    const body = buildCatalogSearchRequest({
      bbox: undefined,
      intersects: buildPolygon({ seed: 2 }),
    });
    parseOk(CatalogSearchRequest, body);
    expect(CatalogSearchRequest.safeParse({ ...body, bbox: [0, 0, 1, 1] }).success).toBe(false);
  });
});

describe('spec property keys', () => {
  // Spec 2.10, verbatim.
  const CATALOG_KEYS = {
    string: [
      'constellation',
      'created',
      'datetime',
      'platform',
      'proj:wkt2',
      'sat:orbit_state',
      'sci:doi',
      'updated',
    ],
    number: [
      'eo:cloud_cover',
      'gsd',
      'proj:epsg',
      'sat:relative_orbit',
      'view:off_nadir',
      'view:satellite_look_angle',
      'view:sun_azimuth',
      'view:sun_elevation',
    ],
    stringArray: ['instruments'],
    numberArray: ['proj:shape', 'proj:transform'],
  };
  // Spec 2.11, verbatim.
  const ARCHIVE_KEYS = {
    number: [
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
    ],
    string: [
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
    ],
    stringArray: ['instruments'],
    numberArray: ['proj:shape', 'proj:transform'],
  };

  function expectTyped(props: Obj, keys: typeof CATALOG_KEYS) {
    for (const k of keys.string) expect(typeof props[k], k).toBe('string');
    for (const k of keys.number) expect(typeof props[k], k).toBe('number');
    for (const k of keys.stringArray) {
      expect(
        (props[k] as unknown[]).every((v) => typeof v === 'string'),
        k,
      ).toBe(true);
    }
    for (const k of keys.numberArray) {
      const arr = props[k] as unknown[];
      expect(arr.length, k).toBeGreaterThan(0);
      expect(
        arr.every((v) => typeof v === 'number'),
        k,
      ).toBe(true);
    }
  }
  const all = (keys: typeof CATALOG_KEYS) => Object.values(keys).flat().sort();

  it('2.10: the schema names every key and the builders fill each with its type', () => {
    expect(shapeKeys(CatalogProperties).sort()).toEqual(all(CATALOG_KEYS));
    expectTyped(buildCatalogProperties(), CATALOG_KEYS);
    expectTyped(buildCatalogRecord().details.properties, CATALOG_KEYS);
  });

  it('2.11: the schema names every key and the builders fill each with its type', () => {
    expect(shapeKeys(ArchiveProperties).sort()).toEqual(all(ARCHIVE_KEYS));
    expectTyped(buildArchiveProperties(), ARCHIVE_KEYS);
    expectTyped(buildArchiveFeatureCollection().features[0]!.properties, ARCHIVE_KEYS);
  });

  it('STAC item and archive feature carry every top-level key of 2.10 / 2.11', () => {
    const stacKeys = [
      'assets',
      'bbox',
      'collection',
      'geometry',
      'id',
      'links',
      'properties',
      'stac_extensions',
      'stac_version',
      'type',
    ];
    expect(Object.keys(buildStacItem()).sort()).toEqual(stacKeys);
    expect(Object.keys(buildArchiveFeature()).sort()).toEqual(stacKeys);
    expect(Object.keys(buildArchiveFeatureCollection()).sort()).toEqual([
      'features',
      'links',
      'type',
    ]);
    for (const link of buildStacItem().links) {
      expect(Object.keys(link).sort()).toEqual(['href', 'rel', 'title', 'type']);
    }
  });
});
