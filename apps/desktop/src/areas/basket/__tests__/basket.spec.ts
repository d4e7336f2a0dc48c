import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { basketMethods } from '../contract';

describeArgumentChecks('basket', basketMethods, {
  'basket.list': { good: undefined, bad: { all: true }, path: '' },
  'basket.add': { good: { ids: ['c-1'] }, bad: { ids: ['c-1', ''] }, path: 'ids.1' },
  'basket.remove': { good: { ids: ['c-1'] }, bad: { ids: [] }, path: 'ids' },
  'basket.clear': { good: {}, bad: { ids: ['c-1'] }, path: '' },
  'basket.addArchive': {
    good: { searchId: 's-1', sceneIds: ['scene-1'] },
    bad: { searchId: 's-1', sceneIds: [] },
    path: 'sceneIds',
  },
  'catalog.ordered': { good: undefined, bad: 'all', path: '' },
  'catalog.scenes': { good: { sceneIds: ['s-1'] }, bad: { sceneIds: [] }, path: 'sceneIds' },
});
