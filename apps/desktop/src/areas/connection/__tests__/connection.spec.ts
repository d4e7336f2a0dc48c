import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { connectionMethods } from '../contract';

describeArgumentChecks('connection', connectionMethods, {
  'connectivity.check': { good: undefined, bad: { force: true }, path: '' },
  'connectivity.networkChanged': {
    good: { reason: 'resume' },
    bad: { reason: 'wifi' },
    path: 'reason',
  },
});
