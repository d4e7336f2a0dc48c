import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { handoverMethods } from '../contract';

describeArgumentChecks('handover', handoverMethods, {
  'outbox.handoverPlan': { good: undefined, bad: { ids: [] }, path: 'ids' },
  'outbox.handOver': { good: { ids: ['e1'] }, bad: { ids: ['e1', ''] }, path: 'ids.1' },
  'outbox.takeBack': { good: { ids: ['e1'] }, bad: {}, path: 'ids' },
  'outbox.receiveHandover': {
    good: { name: 'work.json', base64: 'e30=' },
    bad: { name: 'work.json', base64: 'e30' },
    path: 'base64',
  },
});
