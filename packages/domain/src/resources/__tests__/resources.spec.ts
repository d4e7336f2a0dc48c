import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  Aoi,
  AoiList,
  ArchiveFeature,
  ArchiveFeatureCollection,
  Asset,
  AssetList,
  CatalogRecord,
  CatalogSearchPagination,
  CatalogSearchResponse,
  Delivery,
  DeliveryList,
  Geometry,
  IndexList,
  Job,
  OffsetPagination,
  Order,
  OrderItem,
  OrderItemList,
  OrderList,
  SatelliteSearchResponse,
  SkipPagination,
  SpectralIndex,
  StacItem,
  Task,
  Visualization,
  bboxNumbers,
} from '../../index';
import { clone, expectIssueAt, parseOk } from '../../__tests__/support';
import {
  buildAoi,
  buildArchiveFeature,
  buildArchiveFeatureCollection,
  buildAsset,
  buildCatalogRecord,
  buildDelivery,
  buildJob,
  buildOrder,
  buildOrderItem,
  buildSpectralIndex,
  buildStacItem,
  buildTask,
  buildVisualization,
} from '../../testing';

type Obj = Record<string, unknown>;

/** An order as the spec describes it, written by hand with the spec's sample values. */
const SPEC_ORDER = {
  id: 'ord_01',
  created_at: '2024-05-17T09:30:00Z',
  updated_at: '2024-05-17T09:31:12.345+00:00',
  created_by: 'usr_1',
  updated_by: 'usr_1',
  user_id: 'usr_1',
  org_id: 'org_1',
  paid_at: '2024-05-17T09:31:00Z',
  status: 'PAID',
  total_amount: 1250.5,
  transaction_id: 'txn_1',
  order_items: [
    {
      id: 'itm_01',
      name: 'Beauce wheat fields',
      order_id: 'ord_01',
      org_id: 'org_1',
      project_id: 'prj_1',
      user_id: 'usr_1',
      type: 'ARCHIVE',
      status: 'COMPLETED',
      payment_status: 'PAID',
      feasibility_status: 'SUCCESS',
      last_feasibility_check: '2024-05-17T09:30:05Z',
      area: 25.4,
      bandset: {
        bandset_id: 'bs_1',
        bands: [
          { name: 'red', wavelength: 0.665 },
          { name: 'nir', wavelength: 0.842 },
        ],
        custom: [[0.665, 0.842]],
      },
      number_of_bands: 2,
      base_amount: 1000,
      final_amount: 1250.5,
      tokens_used: 120,
      transaction_id: 'txn_1',
      uplifts: [
        {
          amount: 250.5,
          item_id: 'itm_01',
          percentage: 25.05,
          subtitle: 'Priority',
          title: 'Uplift',
        },
      ],
      cloud_cover: 10,
      off_nadir: 20,
      cloud_delivery: { config: 'aws', path: 's3://bucket/path/' },
      delivery_speed: 'STANDARD',
      image_type: 'VNIR',
      recurrence: 'ONCE',
      usecase: 'agriculture',
      start_date: '2024-05-01T00:00:00Z',
      end_date: '2024-05-31T00:00:00+00:00',
      no_of_occurrences: 1,
      occurrences: [{ start: '2024-05-01T00:00:00+00:00', end: '2024-05-31T00:00:00+00:00' }],
      images: [{ geometry: { type: 'Point', coordinates: [1.6, 48.2] }, item_id: 'scene_1' }],
      tasks: [
        {
          id: 'tsk_01',
          order_item_id: 'itm_01',
          type: 'ARCHIVE',
          status: 'COMPLETED',
          delivery_status: 'SUCCESSFUL',
          start_date: '01-05-2024',
          end_date: '31-05-2024',
          number_of_strips: 2,
          tokens_used: 120,
          transaction_id: 'txn_1',
          created_at: '2024-05-17T09:30:00Z',
          updated_at: '2024-05-17T10:00:00Z',
          created_by: 'usr_1',
          updated_by: 'usr_1',
        },
      ],
      validation_errors: [{ anything: 'goes', nested: { ok: true } }],
      created_at: '2024-05-17T09:30:00Z',
      updated_at: '2024-05-17T10:00:00Z',
      created_by: 'usr_1',
      updated_by: 'usr_1',
    },
  ],
};

describe('spec sample values', () => {
  it('an order with an order item and task holding every sample value parses unchanged', () => {
    expect(parseOk(Order, clone(SPEC_ORDER))).toEqual(SPEC_ORDER);
  });

  it('order item: delivery_speed STANDARD, image_type VNIR, recurrence ONCE, usecase agriculture', () => {
    const item = parseOk(
      OrderItem,
      buildOrderItem({
        delivery_speed: 'STANDARD',
        image_type: 'VNIR',
        recurrence: 'ONCE',
        usecase: 'agriculture',
      }),
    );
    expect([item.delivery_speed, item.image_type, item.recurrence, item.usecase]).toEqual([
      'STANDARD',
      'VNIR',
      'ONCE',
      'agriculture',
    ]);
  });

  it('task: type ARCHIVE, status COMPLETED, delivery_status SUCCESSFUL', () => {
    const t = parseOk(
      Task,
      buildTask({ type: 'ARCHIVE', status: 'COMPLETED', delivery_status: 'SUCCESSFUL' }),
    );
    expect([t.type, t.status, t.delivery_status]).toEqual(['ARCHIVE', 'COMPLETED', 'SUCCESSFUL']);
  });

  it('catalog record: delivery_status SUCCESSFUL', () => {
    expect(
      parseOk(CatalogRecord, buildCatalogRecord({ delivery_status: 'SUCCESSFUL' })).delivery_status,
    ).toBe('SUCCESSFUL');
  });

  it('delivery: status SUCCESS', () => {
    expect(parseOk(Delivery, buildDelivery({ status: 'SUCCESS' })).status).toBe('SUCCESS');
  });

  it('asset: asset_type mosaic, status success', () => {
    const a = parseOk(Asset, buildAsset({ asset_type: 'mosaic', status: 'success' }));
    expect([a.asset_type, a.status]).toEqual(['mosaic', 'success']);
  });

  it('archive feature: bbox with numeric strings (and plain numbers)', () => {
    const strings = parseOk(
      ArchiveFeature,
      buildArchiveFeature({ bbox: ['1.55', '48.2', '1.75', '48.3'] }),
    );
    expect(strings.bbox).toEqual(['1.55', '48.2', '1.75', '48.3']);
    expect(bboxNumbers(strings.bbox)).toEqual([1.55, 48.2, 1.75, 48.3]);
    expect(
      parseOk(ArchiveFeature, buildArchiveFeature({ bbox: [1, -2.5, '3e1', '-4'] })).bbox,
    ).toHaveLength(4);
    expect(bboxNumbers(null)).toBeNull();
    expectIssueAt(ArchiveFeature, buildArchiveFeature({ bbox: ['1.5', 'north', '2', '3'] }), [
      'bbox',
      1,
    ]);
  });

  it('open fields (2.14) take values beyond the samples', () => {
    parseOk(Task, buildTask({ type: 'SOMETHING_NEW', status: 'queued', delivery_status: 'n/a' }));
    parseOk(Delivery, buildDelivery({ status: 'REQUEUED' }));
    parseOk(Asset, buildAsset({ status: 'archived', asset_type: 'cog' }));
    parseOk(Job, buildJob({ status: 'whatever' }));
  });

  it('validation_errors items are any objects, but objects', () => {
    parseOk(
      OrderItem,
      buildOrderItem({ validation_errors: [{}, { code: 'x', field: 'name', message: 'm' }] }),
    );
    expectIssueAt(OrderItem, buildOrderItem({ validation_errors: ['text'] as never }), [
      'validation_errors',
      0,
    ]);
  });
});

describe('wrong types are rejected at their field path', () => {
  const cases: [string, z.ZodType, () => Obj, (v: Obj) => void, PropertyKey[], RegExp?][] = [
    [
      'order: item status',
      Order,
      () => clone(SPEC_ORDER),
      (v) => set(v, ['order_items', 0, 'status'], 'done'),
      ['order_items', 0, 'status'],
      /expected one of/,
    ],
    [
      'order: status wrong case',
      Order,
      () => clone(SPEC_ORDER),
      (v) => (v.status = 'paid'),
      ['status'],
    ],
    [
      'order: total_amount as string',
      Order,
      () => clone(SPEC_ORDER),
      (v) => (v.total_amount = '12.5'),
      ['total_amount'],
      /expected number/,
    ],
    [
      'order: created_at date only',
      Order,
      () => clone(SPEC_ORDER),
      (v) => (v.created_at = '2024-05-17'),
      ['created_at'],
      /ISO 8601/,
    ],
    [
      'order: created_at missing',
      Order,
      () => clone(SPEC_ORDER),
      (v) => delete v.created_at,
      ['created_at'],
    ],
    [
      'order: paid_at in the AOI layout',
      Order,
      () => clone(SPEC_ORDER),
      (v) => (v.paid_at = '2024-05-17 09:30:00.000000+00:00'),
      ['paid_at'],
    ],
    ['order: id empty', Order, () => clone(SPEC_ORDER), (v) => (v.id = ''), ['id'], /non-empty/],
    [
      'task: start_date year first',
      Order,
      () => clone(SPEC_ORDER),
      (v) => set(v, ['order_items', 0, 'tasks', 0, 'start_date'], '2024-05-01'),
      ['order_items', 0, 'tasks', 0, 'start_date'],
      /DD-MM-YYYY/,
    ],
    [
      'item: uplift amount as string',
      OrderItem,
      () => buildOrderItem(),
      (v) => set(v, ['uplifts', 0, 'amount'], 'ten'),
      ['uplifts', 0, 'amount'],
    ],
    [
      'item: band wavelength as string',
      Order,
      () => clone(SPEC_ORDER),
      (v) => set(v, ['order_items', 0, 'bandset', 'bands', 1, 'wavelength'], '0.8'),
      ['order_items', 0, 'bandset', 'bands', 1, 'wavelength'],
    ],
    [
      'item: number_of_bands fractional',
      OrderItem,
      () => buildOrderItem(),
      (v) => (v.number_of_bands = 2.5),
      ['number_of_bands'],
    ],
    [
      'item: occurrence end not ISO',
      OrderItem,
      () => buildOrderItem(),
      (v) => set(v, ['occurrences', 0, 'end'], '31-05-2024'),
      ['occurrences', 0, 'end'],
    ],
    [
      'item: type unknown',
      OrderItem,
      () => buildOrderItem(),
      (v) => (v.type = 'SUBSCRIPTION'),
      ['type'],
    ],
    [
      'item: payment_status underscore',
      OrderItem,
      () => buildOrderItem(),
      (v) => (v.payment_status = 'PARTIAL_REFUND'),
      ['payment_status'],
    ],
    [
      'item: images[].item_id number',
      OrderItem,
      () => buildOrderItem({ type: 'ARCHIVE' }),
      (v) => set(v, ['images', 0, 'item_id'], 7),
      ['images', 0, 'item_id'],
    ],
    [
      'item: cloud_delivery without path',
      OrderItem,
      () => buildOrderItem(),
      (v) => set(v, ['cloud_delivery', 'path'], undefined),
      ['cloud_delivery', 'path'],
    ],
    ['aoi: progress above 100', Aoi, () => buildAoi(), (v) => (v.progress = 101), ['progress']],
    [
      'aoi: created_at in ISO layout',
      Aoi,
      () => buildAoi(),
      (v) => (v.created_at = '2024-05-17T09:30:00Z'),
      ['created_at'],
      /YYYY-MM-DD HH:MM:SS\.ffffff\+00:00/,
    ],
    [
      'aoi: centroid of 3 numbers',
      Aoi,
      () => buildAoi(),
      (v) => (v.centroid = [1, 2, 3]),
      ['centroid'],
      /centroid/,
    ],
    [
      'aoi: is_favourite as string',
      Aoi,
      () => buildAoi(),
      (v) => (v.is_favourite = 'yes'),
      ['is_favourite'],
    ],
    [
      'aoi: eo_bands holding a number',
      Aoi,
      () => buildAoi(),
      (v) => set(v, ['eo_bands', 1], 4),
      ['eo_bands', 1],
    ],
    [
      'asset: date day first',
      Asset,
      () => buildAsset(),
      (v) => (v.date = '17-05-2024'),
      ['date'],
      /YYYY-MM-DD/,
    ],
    [
      'asset: progress fractional',
      Asset,
      () => buildAsset(),
      (v) => (v.progress = 0.5),
      ['progress'],
    ],
    [
      'visualization: asset date',
      Visualization,
      () => buildVisualization(),
      (v) => set(v, ['assets', 0, 'date'], '2024/05/17'),
      ['assets', 0, 'date'],
    ],
    [
      'visualization: rescale fractional',
      Visualization,
      () => buildVisualization(),
      (v) => (v.rescale = [0, 1.5]),
      ['rescale', 1],
    ],
    [
      'visualization: type preset',
      Visualization,
      () => buildVisualization(),
      (v) => (v.type = 'preset'),
      ['type'],
    ],
    [
      'index: expression_type capitalised',
      SpectralIndex,
      () => buildSpectralIndex(),
      (v) => (v.expression_type = 'Index'),
      ['expression_type'],
    ],
    [
      'index: bands not a list',
      SpectralIndex,
      () => buildSpectralIndex(),
      (v) => (v.bands = 'B04,B08'),
      ['bands'],
    ],
    [
      'catalog: cloud cover as string',
      CatalogRecord,
      () => buildCatalogRecord(),
      (v) => set(v, ['details', 'properties', 'eo:cloud_cover'], '12'),
      ['details', 'properties', 'eo:cloud_cover'],
    ],
    [
      'catalog: link without href',
      CatalogRecord,
      () => buildCatalogRecord(),
      (v) => set(v, ['details', 'links', 0, 'href'], undefined),
      ['details', 'links', 0, 'href'],
    ],
    [
      'catalog: proj:shape of strings',
      CatalogRecord,
      () => buildCatalogRecord(),
      (v) => set(v, ['details', 'properties', 'proj:shape'], ['10', '10']),
      ['details', 'properties', 'proj:shape', 0],
    ],
    [
      'catalog: created_at in AOI layout',
      CatalogRecord,
      () => buildCatalogRecord(),
      (v) => (v.created_at = '2024-05-17 09:30:00.000000+00:00'),
      ['created_at'],
    ],
    [
      'catalog: geometry of unknown type',
      CatalogRecord,
      () => buildCatalogRecord(),
      (v) => set(v, ['details', 'geometry', 'type'], 'Circle'),
      ['details', 'geometry', 'type'],
    ],
    [
      'catalog: asset without href',
      CatalogRecord,
      () => buildCatalogRecord(),
      (v) => set(v, ['details', 'assets', 'visual', 'href'], undefined),
      ['details', 'assets', 'visual', 'href'],
    ],
    [
      'archive: feature type lower case',
      ArchiveFeatureCollection,
      () => buildArchiveFeatureCollection(),
      (v) => set(v, ['features', 0, 'type'], 'feature'),
      ['features', 0, 'type'],
    ],
    [
      'archive: gsd as string',
      ArchiveFeatureCollection,
      () => buildArchiveFeatureCollection(),
      (v) => set(v, ['features', 1, 'properties', 'gsd'], '3'),
      ['features', 1, 'properties', 'gsd'],
    ],
    [
      'archive: stac_extensions of numbers',
      ArchiveFeatureCollection,
      () => buildArchiveFeatureCollection(),
      (v) => set(v, ['features', 0, 'stac_extensions'], [1]),
      ['features', 0, 'stac_extensions', 0],
    ],
    ['delivery: status number', Delivery, () => buildDelivery(), (v) => (v.status = 1), ['status']],
    [
      'delivery: cloud_delivery.path number',
      Delivery,
      () => buildDelivery(),
      (v) => set(v, ['cloud_delivery', 'path'], 3),
      ['cloud_delivery', 'path'],
    ],
    [
      'delivery: updated_at without offset',
      Delivery,
      () => buildDelivery(),
      (v) => (v.updated_at = '2024-05-17T09:30:00'),
      ['updated_at'],
    ],
    [
      'job: task progress as text',
      Job,
      () => buildJob(),
      (v) => set(v, ['tasks', 0, 'progress'], 'half'),
      ['tasks', 0, 'progress'],
    ],
    [
      'job: val_errors err number',
      Job,
      () => buildJob(),
      (v) => (v.val_errors = [{ err: 5 }]),
      ['val_errors', 0, 'err'],
    ],
    ['job: spec fractional', Job, () => buildJob(), (v) => (v.spec = [1, 2.5]), ['spec', 1]],
    [
      'job: estimated_duration as string',
      Job,
      () => buildJob(),
      (v) => (v.estimated_duration = '10'),
      ['estimated_duration'],
    ],
    [
      'job: progress as number (a string in 2.13)',
      Job,
      () => buildJob(),
      (v) => (v.progress = 50),
      ['progress'],
    ],
    [
      'job: block_info.version number',
      Job,
      () => buildJob(),
      (v) => set(v, ['tasks', 0, 'block_info', 'version'], 2),
      ['tasks', 0, 'block_info', 'version'],
    ],
  ];

  it.each(cases)('%s', (_name, schema, make, mutate, path, message) => {
    const value = clone(make());
    parseOk(schema, clone(value)); // the base value is valid: only the mutation can fail it
    mutate(value);
    expectIssueAt(schema, value, path, message);
  });
});

/** Set (or delete, with undefined) a nested value. */
function set(obj: Obj, path: PropertyKey[], value: unknown) {
  let cur = obj as Record<PropertyKey, unknown>;
  for (const key of path.slice(0, -1)) cur = cur[key] as Record<PropertyKey, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

describe('response schemas keep unknown fields', () => {
  it('at the top and nested levels of an order', () => {
    const v = clone(SPEC_ORDER) as Obj;
    v.loyalty_points = 7;
    set(v, ['order_items', 0, 'sensor_mode'], 'stereo');
    set(v, ['order_items', 0, 'tasks', 0, 'strip_ids'], ['a', 'b']);
    set(v, ['order_items', 0, 'bandset', 'bit_depth'], 12);
    const out = parseOk(Order, v) as Obj;
    expect(out.loyalty_points).toBe(7);
    const item = (out.order_items as Obj[])[0]!;
    expect(item.sensor_mode).toBe('stereo');
    expect((item.tasks as Obj[])[0]!.strip_ids).toEqual(['a', 'b']);
    expect((item.bandset as Obj).bit_depth).toBe(12);
  });

  it.each([
    ['Aoi', Aoi, () => buildAoi()],
    ['Asset', Asset, () => buildAsset()],
    ['Visualization', Visualization, () => buildVisualization()],
    ['SpectralIndex', SpectralIndex, () => buildSpectralIndex()],
    ['Delivery', Delivery, () => buildDelivery()],
    ['Job', Job, () => buildJob()],
    ['StacItem', StacItem, () => buildStacItem()],
    ['ArchiveFeatureCollection', ArchiveFeatureCollection, () => buildArchiveFeatureCollection()],
  ] as [string, z.ZodType, () => Obj][])('%s', (_name, schema, make) => {
    const out = parseOk(schema, { ...make(), 'x-extra': { deep: [1, 2] } }) as Obj;
    expect(out['x-extra']).toEqual({ deep: [1, 2] });
  });

  it('inside a catalog record: STAC item, its properties, links, assets and geometry', () => {
    const v = clone(buildCatalogRecord()) as Obj;
    set(v, ['details', 'properties', 'custom:field'], 'kept');
    set(v, ['details', 'links', 0, 'method'], 'GET');
    set(v, ['details', 'assets', 'visual', 'raster:bands'], [{ nodata: 0 }]);
    set(v, ['details', 'geometry', 'crs_note'], 'wgs84');
    set(v, ['details', 'anything'], true);
    const out = parseOk(CatalogRecord, v);
    expect(out.details.properties['custom:field']).toBe('kept');
    expect(out.details.links[0]!.method).toBe('GET');
    expect(out.details.assets.visual!['raster:bands']).toEqual([{ nodata: 0 }]);
    expect((out.details.geometry as unknown as Obj).crs_note).toBe('wgs84');
    expect(out.details.anything).toBe(true);
  });

  it('in list responses and their pagination', () => {
    const out = parseOk(OrderList, {
      orders: [buildOrder()],
      pagination: { limit: 10, offset: 0, total: 1, next: '/v0/orders?offset=10' },
      request_id: 'req-1',
    });
    expect(out.request_id).toBe('req-1');
    expect(out.pagination.next).toBe('/v0/orders?offset=10');
  });
});

describe('tolerance of absent and null optional fields', () => {
  it('null optional fields are accepted', () => {
    parseOk(Order, { ...buildOrder.minimal(), paid_at: null, total_amount: null, order_items: [] });
    parseOk(Aoi, { ...buildAoi.minimal(), geometry: null, centroid: null, progress: null });
    parseOk(CatalogRecord, { ...buildCatalogRecord(), area: null, created_at: null });
  });

  it('defaults fill absent lists', () => {
    expect(parseOk(Order, buildOrder.minimal()).order_items).toEqual([]);
    const stac = parseOk(StacItem, buildStacItem.minimal());
    expect([stac.links, stac.stac_extensions]).toEqual([[], []]);
    const f = parseOk(ArchiveFeature, buildArchiveFeature.minimal());
    expect([f.links, f.assets, f.stac_extensions]).toEqual([[], {}, []]);
    expect(
      parseOk(ArchiveFeatureCollection, buildArchiveFeatureCollection.minimal()).links,
    ).toEqual([]);
  });

  it('required identity and state fields are required', () => {
    expectIssueAt(OrderItem, { ...buildOrderItem.minimal(), order_id: undefined }, ['order_id']);
    expectIssueAt(Aoi, { ...buildAoi.minimal(), status: undefined }, ['status']);
    expectIssueAt(Visualization, { ...buildVisualization.minimal(), status: null }, ['status']);
    expectIssueAt(StacItem, { ...buildStacItem.minimal(), geometry: undefined }, ['geometry']);
    expectIssueAt(Job, { ...buildJob.minimal(), workflow_id: undefined }, ['workflow_id']);
  });
});

describe('tolerant geometry', () => {
  it.each([
    { type: 'Point', coordinates: [1, 2] },
    {
      type: 'MultiPoint',
      coordinates: [
        [1, 2],
        [3, 4, 5],
      ],
    },
    {
      type: 'LineString',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    },
    {
      type: 'MultiLineString',
      coordinates: [
        [
          [1, 2],
          [3, 4],
        ],
      ],
    },
    {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    },
    {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      ],
    },
    { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }] },
  ])('accepts $type', (g) => {
    expect(parseOk(Geometry, g)).toEqual(g);
  });

  it('rejects a position with one number and a non-finite coordinate', () => {
    expectIssueAt(
      Geometry,
      { type: 'Point', coordinates: [1] },
      ['coordinates'],
      /at least 2 numbers/,
    );
    expectIssueAt(
      Geometry,
      {
        type: 'LineString',
        coordinates: [
          [1, 2],
          [Infinity, 2],
        ],
      },
      ['coordinates', 1, 0],
    );
  });
});

describe('pagination shapes', () => {
  it('offset and skip pagination need non-negative integers', () => {
    parseOk(OffsetPagination, { limit: 10, offset: 0, total: 0 });
    parseOk(SkipPagination, { limit: 10, skip: 20, total: 100 });
    expectIssueAt(OffsetPagination, { limit: 10, offset: -1, total: 0 }, ['offset']);
    expectIssueAt(OffsetPagination, { limit: 10, offset: 0 }, ['total']);
    expectIssueAt(SkipPagination, { limit: 1.5, skip: 0, total: 0 }, ['limit']);
  });

  it('catalog search pagination (shape not shown) accepts either shape or any object', () => {
    for (const p of [
      { limit: 100, offset: 0, total: 3 },
      { limit: 5, skip: 0, total: 3 },
      { next: 'cursor' },
      {},
    ]) {
      expect(parseOk(CatalogSearchPagination, p)).toEqual(p);
    }
    expect(CatalogSearchPagination.safeParse({ limit: -1 }).success).toBe(false);
    expect(CatalogSearchPagination.safeParse('page 1').success).toBe(false);
  });
});

describe('list responses', () => {
  it('parse built resources', () => {
    const page = { limit: 10, offset: 0, total: 2 };
    parseOk(OrderItemList, {
      order_items: [buildOrderItem(), buildOrderItem.minimal()],
      pagination: page,
    });
    parseOk(AssetList, { assets: [buildAsset()], pagination: page });
    parseOk(AoiList, { aois: [buildAoi(), buildAoi.minimal()], pagination: page });
    parseOk(IndexList, { indices: [buildSpectralIndex()], pagination: page });
    parseOk(CatalogSearchResponse, { catalogs: [buildCatalogRecord()], pagination: page });
    parseOk(DeliveryList, { deliveries: [buildDelivery(), buildDelivery.minimal()] });
    parseOk(SatelliteSearchResponse, {
      items: buildArchiveFeatureCollection(),
      pagination: { limit: 10, skip: 0, total: 2 },
    });
  });

  it('reject a list of the wrong resource at its path', () => {
    expectIssueAt(
      AoiList,
      { aois: [buildAoi(), { name: 'no id' }], pagination: { limit: 10, offset: 0, total: 2 } },
      ['aois', 1, 'aoi_id'],
    );
    expectIssueAt(
      SatelliteSearchResponse,
      { items: [], pagination: { limit: 1, skip: 0, total: 0 } },
      ['items'],
    );
    expectIssueAt(
      SatelliteSearchResponse,
      { items: {}, pagination: { limit: 1, offset: 0, total: 0 } },
      ['pagination', 'skip'],
    );
  });
});
