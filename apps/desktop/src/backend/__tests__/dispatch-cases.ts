/**
 * A good and a bad argument for every contract method, and the field path the bad one must be
 * refused at: the backend's dispatch is where arguments are validated (main only relays).
 */
export const CASES: Record<string, { good: unknown; bad: unknown; path: string }> = {
  'app.info': { good: undefined, bad: { x: 1 }, path: '' },
  'settings.get': { good: {}, bad: [], path: '' },
  'settings.update': {
    good: { syncIntervalMinutes: 5 },
    bad: { syncIntervalMinutes: 1441 },
    path: 'syncIntervalMinutes',
  },
  'mirror.clear': { good: undefined, bad: 'all', path: '' },
  'connectivity.check': { good: undefined, bad: { force: true }, path: '' },
  'connectivity.networkChanged': {
    good: { reason: 'resume' },
    bad: { reason: 'wifi' },
    path: 'reason',
  },
  'sync.run': {
    good: { resources: ['orders'] },
    bad: { resources: ['orders', 'secrets'] },
    path: 'resources.1',
  },
  'sync.cancel': { good: {}, bad: { now: 1 }, path: '' },
  'sync.status': { good: undefined, bad: 1, path: '' },
  'catalog.search': { good: { limit: 3 }, bad: { limit: 3, extra: true }, path: '' },
  'catalog.footprints': {
    good: { bbox: [0, 0, 1, 1] },
    bad: { bbox: [0, 0, 200, 1] },
    path: 'bbox.2',
  },
  'catalog.cloudHistogram': {
    good: { query: { 'eo:cloud_cover': { lte: 30 } } },
    bad: { bbox: [0, 95, 1, 1] },
    path: 'bbox.1',
  },
  'catalog.get': { good: { id: 'x' }, bad: { id: '' }, path: 'id' },
  'savedSearches.list': { good: {}, bad: { all: true }, path: '' },
  'savedSearches.save': {
    good: { name: 'n', query: {} },
    bad: { name: '', query: {} },
    path: 'name',
  },
  'savedSearches.remove': { good: { id: 'a' }, bad: { id: ['a'] }, path: 'id' },
  'tiles.get': { good: { z: 0, x: 0, y: 0 }, bad: { z: 23, x: 0, y: 0 }, path: 'z' },
  'orders.list': {
    good: { status: ['PAID'], created: { from: '2024-01-01T00:00:00Z' } },
    bad: { status: ['SHIPPED'] },
    path: 'status.0',
  },
  'orderItems.list': {
    good: { orderIds: ['o1', 'o2'], areaKm2: { min: 1, max: 10 }, text: 'field' },
    bad: { orderIds: ['o1'], areaKm2: { min: -1 } },
    path: 'areaKm2.min',
  },
  'orders.quote': {
    good: {
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: 'Field A',
          geometry: {
            type: 'FeatureCollection',
            features: [
              {
                type: 'Feature',
                properties: {},
                geometry: {
                  type: 'Polygon',
                  coordinates: [
                    [
                      [11.3, 44.45],
                      [11.4, 44.45],
                      [11.4, 44.55],
                      [11.3, 44.45],
                    ],
                  ],
                },
              },
            ],
          },
          item_ids: ['AUR1_20240517T093012_L2A_R042_F0123'],
        },
      ],
    },
    bad: { order_items: [] },
    path: 'order_items',
  },
  'aois.list': { good: { text: 'vine' }, bad: { status: ['done'] }, path: 'status.0' },
  'aois.assets': { good: { aoiId: 'aoi-1' }, bad: { aoiId: '' }, path: 'aoiId' },
  'aois.indexMaps': { good: { aoiId: 'aoi-1' }, bad: { aoiId: 1 }, path: 'aoiId' },
  'indices.list': { good: { type: 'custom' }, bad: { type: 'builtin' }, path: 'type' },
  'visualizations.list': { good: undefined, bad: { aoiId: 'a' }, path: '' },
  'deliveries.list': { good: {}, bad: [], path: '' },
  'jobs.list': { good: undefined, bad: 'all', path: '' },
  'jobs.estimate': { good: { workflowId: 'wf-1' }, bad: { workflowId: '' }, path: 'workflowId' },
  'jobs.results': { good: { jobId: 'job-1' }, bad: { jobId: '' }, path: 'jobId' },
  'created.refresh': { good: {}, bad: { force: true }, path: '' },
  'lookups.get': { good: undefined, bad: { kind: 'projects' }, path: '' },
  'outbox.list': { good: { states: ['queued', 'failed'] }, bad: { states: [] }, path: 'states' },
  'outbox.enqueue': {
    good: { kind: 'job', input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' } },
    bad: { kind: 'job', input: { workflow_id: 'wf-cloud-mask' } },
    path: 'input.project_id',
  },
  'outbox.enqueueAll': {
    good: {
      creates: [
        { kind: 'job', input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' } },
      ],
    },
    bad: {
      creates: [
        { kind: 'job', input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' } },
        { kind: 'job', input: { workflow_id: 'wf-cloud-mask' } },
      ],
    },
    path: 'creates.1.input.project_id',
  },
  'outbox.edit': { good: { id: 'e1', input: { name: 'x' } }, bad: { id: 'e1' }, path: 'input' },
  'outbox.retry': { good: { id: 'e1' }, bad: { id: '' }, path: 'id' },
  'outbox.cancel': { good: { id: 'e1' }, bad: {}, path: 'id' },
  'outbox.confirm': {
    good: { id: 'e1', remoteId: 'job-1' },
    bad: { id: 'e1', remoteId: '' },
    path: 'remoteId',
  },
  'outbox.resend': { good: { id: 'e1' }, bad: { id: 7 }, path: 'id' },
  'outbox.flush': { good: undefined, bad: { now: true }, path: '' },
  'outbox.reviewOrders': { good: undefined, bad: { all: true }, path: '' },
  'outbox.sendOrders': {
    good: { orders: [{ id: 'e1', updatedAt: '2026-11-25T10:00:00.000Z', total: 12.5 }] },
    bad: { orders: [] },
    path: 'orders',
  },
  'outbox.handoverPlan': { good: undefined, bad: { ids: [] }, path: 'ids' },
  'outbox.handOver': { good: { ids: ['e1'] }, bad: { ids: ['e1', ''] }, path: 'ids.1' },
  'outbox.takeBack': { good: { ids: ['e1'] }, bad: {}, path: 'ids' },
  'outbox.receiveHandover': {
    good: { name: 'work.json', base64: 'e30=' },
    bad: { name: 'work.json', base64: 'e30' },
    path: 'base64',
  },
  'files.preview': {
    good: { name: 'fields.geojson', base64: 'e30=' },
    bad: { name: 'fields.geojson', base64: 'e30=!' },
    path: 'base64',
  },
  'files.typedArea': { good: { text: '1 2 3 4' }, bad: { text: 1234 }, path: 'text' },
  'basket.list': { good: undefined, bad: { all: true }, path: '' },
  'basket.add': { good: { ids: ['c-1'] }, bad: { ids: ['c-1', ''] }, path: 'ids.1' },
  'basket.addArchive': {
    good: { searchId: 's-1', sceneIds: ['scene-1'] },
    bad: { searchId: 's-1', sceneIds: [] },
    path: 'sceneIds',
  },
  'basket.remove': { good: { ids: ['c-1'] }, bad: { ids: [] }, path: 'ids' },
  'basket.clear': { good: {}, bad: { ids: ['c-1'] }, path: '' },
  'catalog.ordered': { good: undefined, bad: 'all', path: '' },
  'catalog.scenes': { good: { sceneIds: ['s-1'] }, bad: { sceneIds: [] }, path: 'sceneIds' },
  'archive.searches': { good: {}, bad: { all: true }, path: '' },
  'archive.save': {
    good: { name: 'n', search: { satellite: { collection_id: 'c', satellite_id: 's' } } },
    bad: {
      name: 'n',
      search: { satellite: { collection_id: 'c', satellite_id: 's' } },
      maxScenes: 5000,
    },
    path: 'maxScenes',
  },
  'archive.remove': { good: { id: 'a' }, bad: { id: '' }, path: 'id' },
  'archive.scenes': { good: { searchId: 'a' }, bad: { searchId: 1 }, path: 'searchId' },
  'rasters.list': { good: {}, bad: { all: true }, path: '' },
  'rasters.remove': { good: { id: 'r' }, bad: { id: '' }, path: 'id' },
  'rasters.take': {
    good: {
      scene: { kind: 'catalog', id: 's' },
      area: { kind: 'around', lon: 6.6, lat: 46.5, radiusM: 1000 },
      resolution: 'native',
    },
    bad: {
      scene: { kind: 'catalog', id: 's' },
      area: { kind: 'around', lon: 6.6, lat: 46.5, radiusM: -1 },
      resolution: 'native',
    },
    path: 'area.radiusM',
  },
  'rasters.takes': { good: {}, bad: { all: true }, path: '' },
  'rasters.cancel': { good: { key: 'k' }, bad: { key: 1 }, path: 'key' },
  'rasters.export': {
    good: { id: 'r', what: 'window' },
    bad: { id: 'r', what: 'index', index: { name: 'NDVI', expression: 'NIR', bandMap: [-1] } },
    path: 'index.bandMap.0',
  },
  'rasters.pause': { good: { key: 'k' }, bad: { key: 'k'.repeat(4001) }, path: 'key' },
  'rasters.resume': { good: { id: 'off_1' }, bad: { id: '' }, path: 'id' },
  'rasters.link': { good: {}, bad: { rate: 2e6 }, path: '' },
  'files.export': {
    good: { source: { kind: 'aois' }, format: 'kmz' },
    bad: { source: { kind: 'aois' }, format: 'kmz', wkt: true },
    path: 'wkt',
  },
  'packages.plan': {
    good: { selection: { kind: 'aoi', aoiId: 'a-1' } },
    bad: { selection: { kind: 'aoi', aoiId: '' } },
    path: 'selection.aoiId',
  },
  'packages.share': {
    good: { selection: { kind: 'aoi', aoiId: 'a-1' }, imagery: 'off' },
    bad: { selection: { kind: 'aoi', aoiId: 'a-1' }, pixels: true },
    path: '',
  },
  'packages.open': {
    good: { name: 'site.gpkg', base64: 'e30=' },
    bad: { name: '../site.gpkg', base64: 'e30=' },
    path: 'name',
  },
};
