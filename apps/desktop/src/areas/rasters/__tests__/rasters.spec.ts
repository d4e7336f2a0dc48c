import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { rastersMethods } from '../contract';

describeArgumentChecks('rasters', rastersMethods, {
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
});
