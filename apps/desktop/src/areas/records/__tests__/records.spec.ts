import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { recordsMethods } from '../contract';

describeArgumentChecks('records', recordsMethods, {
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
});
