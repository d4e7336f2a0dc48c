import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { appMethods } from '../contract';

describeArgumentChecks('app', appMethods, {
  'app.info': { good: undefined, bad: { x: 1 }, path: '' },
  'app.firstScreenShown': { good: undefined, bad: { x: 1 }, path: '' },
});
