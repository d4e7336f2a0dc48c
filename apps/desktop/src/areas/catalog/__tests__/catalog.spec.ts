import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { catalogMethods } from '../contract';

describeArgumentChecks('catalog', catalogMethods, {
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
});
