/**
 * Every api-client call once, in the internal request shape, for a contract run against a
 * service answering as the provider's document does. Inputs are valid for the provider-v0
 * profile (usecase given, satellite search with dates and geometry).
 */
import type { EoClient } from '@eo/api-client';

const polygon = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [-102.41, 34.22],
      [-102.41, 34.19],
      [-102.29, 34.19],
      [-102.29, 34.22],
      [-102.41, 34.22],
    ] as Array<[number, number]>,
  ],
};

export const orderInput = {
  order_items: [
    {
      project_id: 'prj-1',
      name: 'Contract tasking',
      usecase: 'agriculture',
      geometry: {
        type: 'FeatureCollection' as const,
        features: [{ type: 'Feature' as const, geometry: polygon, properties: {} }],
      },
      recurrence: 'ONCE' as const,
      start_date: '2030-10-22T00:00:00Z',
      end_date: '2030-10-28T00:00:00Z',
    },
  ],
};

export const aoiInput = {
  name: 'Contract AOI',
  description: 'field',
  satellite_id: 'sat-1',
  provider: 'prov',
  project_id: 'prj-1',
  geometry: polygon,
  item_ids: ['item-1'],
};

export const indexInput = {
  name: 'NDVI contract',
  description: 'ndvi',
  rescale: [-1, 1],
  expression: '(B08 - B04) / (B08 + B04)',
  colormap: 'RdYlGn',
  satellite_id: 'sat-1',
  expression_type: 'index' as const,
  type: 'custom' as const,
};

export const deliveryInput = {
  deliveries: [{ catalog_ids: ['cat-1'], cloud_info: { config: 'store-1', path: 'a/b/' } }],
};

const satelliteSearch = {
  satellite: { collection_id: 'sentinel-2-l2a', satellite_id: 'sat-1' },
  start_date: '2024-01-01T00:00:00Z',
  end_date: '2024-02-01T00:00:00Z',
  geometry: polygon,
  filters: [{ id: 'eo:cloud_cover', min: 0, max: 30 }],
};

/** Most pages a pager may take here: a pager still going after that is looping. */
export const PAGE_CAP = 25;

async function drain(pages: AsyncIterable<{ items: readonly unknown[] }>): Promise<number> {
  let n = 0;
  for await (const _page of pages) {
    if (++n > PAGE_CAP) throw new Error(`still paging after ${PAGE_CAP} pages: a loop`);
  }
  return n;
}

export type Call = readonly [name: string, run: (c: EoClient) => Promise<unknown>];

/** The provider's field operations (`client.extensions`, @eo/domain field-operations.ts). */
export const FIELD_OPERATION_CALLS: readonly Call[] = [
  ['extensions.ping', (c) => c.extensions.ping()],
  ['extensions.listDeliveries', (c) => c.extensions.listDeliveries({ order_item_id: 'oi-1' })],
  [
    'extensions.listWorkflowJobs',
    (c) => c.extensions.listWorkflowJobs('wf-1', { status: 'RUNNING' }),
  ],
  ['extensions.getWorkflowJob', (c) => c.extensions.getWorkflowJob('wf-1', 'job-1')],
  ['extensions.estimateWorkflowCost', (c) => c.extensions.estimateWorkflowCost('wf-1')],
  ['extensions.listStores', (c) => c.extensions.listStores()],
  ['extensions.listVisualizations', (c) => c.extensions.listVisualizations('aoi-1')],
  [
    'extensions.listArchiveCollections',
    (c) => c.extensions.listArchiveCollections(['sentinel-2-l2a']),
  ],
  [
    'extensions.searchArchive',
    (c) =>
      c.extensions.searchArchive({
        collections: ['sentinel-2-l2a'],
        bbox: [-102.41, 34.19, -102.29, 34.22],
        datetime: '2024-01-01T00:00:00Z/2024-02-01T00:00:00Z',
        limit: 5,
      }),
  ],
  ['extensions.getAoi', (c) => c.extensions.getAoi('aoi-1')],
  ['extensions.getOrderItem', (c) => c.extensions.getOrderItem('oi-1')],
  ['extensions.downloadJob', (c) => c.extensions.downloadJob('wf-1', 'job-1')],
  ['extensions.downloadTask', (c) => c.extensions.downloadTask('wf-1', 'job-1', 'task-1')],
];

export const CALLS: readonly Call[] = [
  ['listOrderItems', (c) => c.listOrderItems({ limit: 5 })],
  ['listAoiAssets', (c) => c.listAoiAssets('aoi-1', { limit: 5 })],
  [
    'searchCatalogs',
    (c) => c.searchCatalogs({ limit: 5, sort_by: [{ field: 'id', direction: 'desc' }] }),
  ],
  ['listAois', (c) => c.listAois({ limit: 5 })],
  ['searchSatelliteImages', (c) => c.searchSatelliteImages({ ...satelliteSearch, limit: 10 })],
  ['listIndices', (c) => c.listIndices({ limit: 5 })],
  [
    'pages.satelliteImages',
    (c) => drain(c.pages.satelliteImages(satelliteSearch, { pageSize: 100 })),
  ],
  ['createIndex', (c) => c.createIndex(indexInput)],
  ['createOrder', (c) => c.createOrder(orderInput)],
  ['listOrders', (c) => c.listOrders({ limit: 5 })],
  [
    'createVisualization',
    (c) => c.createVisualization('aoi-1', { index_id: 'idx-1', src_asset_ids: ['asset-1'] }),
  ],
  ['createDeliveries', (c) => c.createDeliveries(deliveryInput)],
  ['createAoi', (c) => c.createAoi(aoiInput)],
  ['createJob', (c) => c.createJob('wf-1', { project_id: 'prj-1' })],
  ['listArchiveItems', (c) => c.listArchiveItems('sentinel-2-l2a', { limit: 5 })],
  ['extensions.getJob', (c) => c.extensions.getJob({ id: 'job-1', workflow_id: 'wf-1' })],
  ['extensions.getDelivery', (c) => c.extensions.getDelivery('dl-1')],
  ['extensions.getVisualization', (c) => c.extensions.getVisualization('aoi-1', 'vis-1')],
  ['extensions.getOrder', (c) => c.extensions.getOrder('ord-1')],
  ['downloads.createForCatalog', (c) => c.downloads.createForCatalog({ catalog_ids: ['cat-1'] })],
  ['downloads.getForCatalog', (c) => c.downloads.getForCatalog('dl-1')],
  ['downloads.createForAoi', (c) => c.downloads.createForAoi('aoi-1', { asset_ids: ['asset-1'] })],
  ['downloads.getForAoi', (c) => c.downloads.getForAoi('aoi-1', 'dl-1')],
  ['extensions.listProjects', (c) => c.extensions.listProjects()],
  ['extensions.listBandsets', (c) => c.extensions.listBandsets()],
  ['extensions.listSatellites', (c) => c.extensions.listSatellites()],
  ['extensions.listWorkflows', (c) => c.extensions.listWorkflows({ project_id: 'prj-1' })],
  ['pages.orders', (c) => drain(c.pages.orders({}, { pageSize: 50 }))],
  ['pages.orderItems', (c) => drain(c.pages.orderItems({}, { pageSize: 50 }))],
  ['pages.aois', (c) => drain(c.pages.aois({}, { pageSize: 50 }))],
  ['pages.indices', (c) => drain(c.pages.indices({}, { pageSize: 50 }))],
  ['pages.aoiAssets', (c) => drain(c.pages.aoiAssets('aoi-1', {}, { pageSize: 50 }))],
  ['pages.catalogs', (c) => drain(c.pages.catalogs({}, { pageSize: 50 }))],
  [
    'pages.archiveItems',
    (c) => drain(c.pages.archiveItems('sentinel-2-l2a', {}, { pageSize: 50 })),
  ],
  ...FIELD_OPERATION_CALLS,
];
