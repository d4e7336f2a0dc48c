/**
 * Valid wire bodies for every endpoint, from the `@eo/domain/testing` builders (realistic: every
 * field) with the ids and states the tests assert on pinned; fixtures.spec-like checks in
 * encoding.spec.ts make sure each canned body passes its response schema.
 */
import type { EndpointId } from '@eo/domain';
import {
  buildAoi,
  buildArchiveFeature,
  buildAsset,
  buildDelivery,
  buildJob,
  buildOrder,
  buildOrderItem,
  buildSpectralIndex,
  buildVisualization,
} from '@eo/domain/testing';
import { catalogRecord } from './records';

export const wire = {
  orderItem: (id = 'oi-1') =>
    buildOrderItem({ id, order_id: 'ord-1', type: 'TASKING', status: 'ACTIVE' }),
  order: (id = 'ord-1') =>
    buildOrder({
      id,
      status: 'UNPAID',
      order_items: [buildOrderItem({ order_id: id, type: 'TASKING' })],
    }),
  aoi: (id = 'aoi-1') => buildAoi({ aoi_id: id, status: 'success' }),
  asset: (id = 'ast-1') => buildAsset({ id, aoi_id: 'aoi-1' }),
  visualization: (id = 'vis-1') => buildVisualization({ id, aoi_id: 'aoi-1', status: 'creating' }),
  index: (id = 'idx-1') => buildSpectralIndex({ id, expression_type: 'index', type: 'custom' }),
  delivery: (id = 'dlv-1') => buildDelivery({ delivery_id: id }),
  job: (id = 'job-1') => buildJob({ id, workflow_id: 'wf-1' }),
  /** bbox as numeric strings (as the spec's sample), no stac_extensions (the schema defaults it). */
  archiveFeature: (id = 'arc-1') =>
    buildArchiveFeature({
      id,
      bbox: ['10', '50', '10.1', '50.1'],
      stac_extensions: undefined as unknown as string[],
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
