/**
 * Minimal valid wire bodies for every endpoint (`@eo/domain/testing` builders are not on main),
 * checked against the domain response schemas by fixtures.spec.ts.
 */
import type { EndpointId } from '@eo/domain';
import { catalogRecord } from './records';

const MICRO = '2024-05-17 09:30:00.123456+00:00';
const ISO = '2024-05-17T09:30:00Z';
const polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [10, 50],
      [10.1, 50],
      [10.1, 50.1],
      [10, 50],
    ],
  ],
};

export const wire = {
  orderItem: (id = 'oi-1') => ({
    id,
    order_id: 'ord-1',
    name: 'Field A',
    type: 'TASKING',
    status: 'ACTIVE',
    payment_status: 'PAID',
    tasks: [],
    validation_errors: [],
    created_at: ISO,
  }),
  order: (id = 'ord-1') => ({
    id,
    created_at: ISO,
    status: 'UNPAID',
    order_items: [wire.orderItem()],
  }),
  aoi: (id = 'aoi-1') => ({
    aoi_id: id,
    name: 'Field A',
    status: 'success',
    progress: 100,
    geometry: polygon,
    created_at: MICRO,
  }),
  asset: (id = 'ast-1') => ({ id, aoi_id: 'aoi-1', date: '2024-05-17', created_at: MICRO }),
  visualization: (id = 'vis-1') => ({ id, aoi_id: 'aoi-1', status: 'creating', assets: [] }),
  index: (id = 'idx-1') => ({
    id,
    name: 'NDVI',
    expression: '(B08 - B04) / (B08 + B04)',
    expression_type: 'index',
    type: 'custom',
    created_at: MICRO,
  }),
  delivery: (id = 'dlv-1') => ({ delivery_id: id, catalog_id: 'cat-1', status: 'PENDING' }),
  job: (id = 'job-1') => ({ id, workflow_id: 'wf-1', status: 'queued', progress: '0' }),
  archiveFeature: (id = 'arc-1') => ({
    id,
    type: 'Feature',
    collection: 'col-aurora-l2a',
    bbox: ['10', '50', '10.1', '50.1'],
    geometry: polygon,
    assets: {},
    links: [],
    properties: { datetime: ISO, 'eo:cloud_cover': 12 },
  }),
  satelliteFeature: (id = 'sat-item-1') => ({ id, type: 'Feature', properties: {} }),
  catalogRecord,
};

const page = (limit: number, offset: number, total: number) => ({ limit, offset, total });

/** A canned valid 2xx body per endpoint. */
export const canned: { readonly [Id in EndpointId]: () => unknown } = {
  listOrderItems: () => ({ order_items: [wire.orderItem()], pagination: page(10, 0, 1) }),
  listAoiAssets: () => ({ assets: [wire.asset()], pagination: page(10, 0, 1) }),
  searchCatalogs: () => ({ catalogs: [catalogRecord(0)], pagination: page(100, 0, 1) }),
  listAois: () => ({ aois: [wire.aoi()], pagination: page(10, 0, 1) }),
  searchSatelliteImages: () => ({
    items: { type: 'FeatureCollection', features: [wire.satelliteFeature()] },
    pagination: { limit: 10, skip: 0, total: 1 },
  }),
  listIndices: () => ({ indices: [wire.index()], pagination: page(10, 0, 1) }),
  createIndex: () => wire.index(),
  createOrder: () => wire.order(),
  listOrders: () => ({ orders: [wire.order()], pagination: page(10, 0, 1) }),
  createVisualization: () => wire.visualization(),
  createDeliveries: () => ({ deliveries: [wire.delivery()] }),
  createAoi: () => wire.aoi(),
  createJob: () => wire.job(),
  listArchiveItems: () => ({
    type: 'FeatureCollection',
    features: [wire.archiveFeature()],
    links: [],
  }),
};
