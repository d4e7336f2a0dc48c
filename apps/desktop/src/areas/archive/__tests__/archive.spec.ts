import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { archiveMethods } from '../contract';

describeArgumentChecks('archive', archiveMethods, {
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
});
