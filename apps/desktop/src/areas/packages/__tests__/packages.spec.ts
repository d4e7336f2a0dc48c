import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { packagesMethods } from '../contract';

describeArgumentChecks('packages', packagesMethods, {
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
});
