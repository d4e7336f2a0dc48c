import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { syncMethods } from '../contract';

describeArgumentChecks('sync', syncMethods, {
  'mirror.clear': { good: undefined, bad: 'all', path: '' },
  'sync.run': {
    good: { resources: ['orders'] },
    bad: { resources: ['orders', 'secrets'] },
    path: 'resources.1',
  },
  'sync.cancel': { good: {}, bad: { now: 1 }, path: '' },
  'sync.status': { good: undefined, bad: 1, path: '' },
});
