import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { filesMethods } from '../contract';

describeArgumentChecks('files', filesMethods, {
  'files.preview': {
    good: { name: 'fields.geojson', base64: 'e30=' },
    bad: { name: 'fields.geojson', base64: 'e30=!' },
    path: 'base64',
  },
  'files.typedArea': { good: { text: '1 2 3 4' }, bad: { text: 1234 }, path: 'text' },
  'files.export': {
    good: { source: { kind: 'aois' }, format: 'kmz' },
    bad: { source: { kind: 'aois' }, format: 'kmz', wkt: true },
    path: 'wkt',
  },
});
