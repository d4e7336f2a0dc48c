import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { settingsMethods } from '../contract';

describeArgumentChecks('settings', settingsMethods, {
  'settings.get': { good: {}, bad: [], path: '' },
  'settings.update': {
    good: { syncIntervalMinutes: 5 },
    bad: { syncIntervalMinutes: 1441 },
    path: 'syncIntervalMinutes',
  },
});
