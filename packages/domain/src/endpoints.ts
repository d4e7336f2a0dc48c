/**
 * The 14 endpoints of part 4, in one table: method, path, parameter/body schemas, response
 * schema, success status and kind. The server registers its routes from it, the api-client
 * builds its methods from it, and the OpenAPI document is generated from it.
 *
 * `kind` decides retry policy in clients: `read` (GET) and `search` (read-only POST) may be
 * retried freely; `create` only with an Idempotency-Key. `prepare` (PUT, the provider's job and
 * task downloads) has the service prepare something and answers its state: idempotent, as PUT
 * is, so it is retried freely too.
 */
import type { z } from 'zod';
import {
  CreateAoiRequest,
  CreateDeliveriesRequest,
  CreateIndexRequest,
  CreateJobBody,
  CreateJobQuery,
  CreateVisualizationRequest,
  WorkflowIdParams,
} from './requests/creates';
import {
  AoiIdParams,
  CollectionIdParams,
  ListAoiAssetsQuery,
  ListAoisQuery,
  ListArchiveItemsQuery,
  ListIndicesQuery,
  ListOrderItemsQuery,
  ListOrdersQuery,
} from './requests/lists';
import { CreateOrderRequest } from './requests/orders';
import { SatelliteSearchRequest } from './requests/satellite-search';
import {
  Aoi,
  AoiList,
  ArchiveFeatureCollection,
  AssetList,
  CatalogSearchResponse,
  DeliveryList,
  IndexList,
  Job,
  Order,
  OrderItemList,
  OrderList,
  SatelliteSearchResponse,
  SpectralIndex,
  Visualization,
} from './responses';
import { CatalogSearchRequest } from './search/request';

export type EndpointKind = 'read' | 'search' | 'create' | 'prepare';
export type EndpointMethod = 'GET' | 'POST' | 'PUT';

export interface EndpointDef {
  readonly method: EndpointMethod;
  /** Fastify-style path template: `/v0/aois/:aoi_id/assets`. */
  readonly path: string;
  readonly kind: EndpointKind;
  readonly status: 200 | 201;
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
}

function def<const T extends EndpointDef>(d: T): T {
  return d;
}

export const endpoints = {
  listOrderItems: def({
    method: 'GET',
    path: '/v0/order-items',
    kind: 'read',
    status: 200,
    summary: 'List order items in the workspace',
    query: ListOrderItemsQuery,
    response: OrderItemList,
  }),
  listAoiAssets: def({
    method: 'GET',
    path: '/v0/aois/:aoi_id/assets',
    kind: 'read',
    status: 200,
    summary: 'List assets of an AOI',
    params: AoiIdParams,
    query: ListAoiAssetsQuery,
    response: AssetList,
  }),
  searchCatalogs: def({
    method: 'POST',
    path: '/v0/catalogs/search',
    kind: 'search',
    status: 200,
    summary: 'Search catalogs',
    body: CatalogSearchRequest,
    response: CatalogSearchResponse,
  }),
  listAois: def({
    method: 'GET',
    path: '/v0/aois',
    kind: 'read',
    status: 200,
    summary: 'List AOIs',
    query: ListAoisQuery,
    response: AoiList,
  }),
  searchSatelliteImages: def({
    method: 'POST',
    path: '/v0/search',
    kind: 'search',
    status: 200,
    summary: 'Search satellite images',
    body: SatelliteSearchRequest,
    response: SatelliteSearchResponse,
  }),
  listIndices: def({
    method: 'GET',
    path: '/v0/indices',
    kind: 'read',
    status: 200,
    summary: 'List indices',
    query: ListIndicesQuery,
    response: IndexList,
  }),
  createIndex: def({
    method: 'POST',
    path: '/v0/indices',
    kind: 'create',
    status: 201,
    summary: 'Create an index',
    body: CreateIndexRequest,
    response: SpectralIndex,
  }),
  createOrder: def({
    method: 'POST',
    path: '/v0/orders',
    kind: 'create',
    status: 201,
    summary: 'Create an order',
    body: CreateOrderRequest,
    response: Order,
  }),
  listOrders: def({
    method: 'GET',
    path: '/v0/orders',
    kind: 'read',
    status: 200,
    summary: 'List orders',
    query: ListOrdersQuery,
    response: OrderList,
  }),
  createVisualization: def({
    method: 'POST',
    path: '/v0/aois/:aoi_id/visualizations',
    kind: 'create',
    status: 201,
    summary: 'Create a visualization',
    params: AoiIdParams,
    body: CreateVisualizationRequest,
    response: Visualization,
  }),
  createDeliveries: def({
    method: 'POST',
    path: '/v0/catalogs/deliveries',
    kind: 'create',
    status: 201,
    summary: 'Create a delivery request',
    body: CreateDeliveriesRequest,
    response: DeliveryList,
  }),
  createAoi: def({
    method: 'POST',
    path: '/v0/aois',
    kind: 'create',
    status: 201,
    summary: 'Create an AOI',
    body: CreateAoiRequest,
    response: Aoi,
  }),
  createJob: def({
    method: 'POST',
    path: '/v0/workflows/:workflow_id/jobs',
    kind: 'create',
    status: 201,
    summary: 'Create a job from a workflow',
    params: WorkflowIdParams,
    query: CreateJobQuery,
    body: CreateJobBody,
    response: Job,
  }),
  listArchiveItems: def({
    method: 'GET',
    path: '/v0/archives/collections/:cid/items',
    kind: 'read',
    status: 200,
    summary: 'List items in a collection',
    params: CollectionIdParams,
    query: ListArchiveItemsQuery,
    response: ArchiveFeatureCollection,
  }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;
export const ENDPOINT_IDS = Object.keys(endpoints) as EndpointId[];

/** Fill a path template: `/v0/aois/:aoi_id/assets` + `{ aoi_id: 'a/b' }` -> `/v0/aois/a%2Fb/assets`. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}
