import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { tilesMethods } from '../contract';

describeArgumentChecks('tiles', tilesMethods, {
  'tiles.get': { good: { z: 0, x: 0, y: 0 }, bad: { z: 23, x: 0, y: 0 }, path: 'z' },
});
