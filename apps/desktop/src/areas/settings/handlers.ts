/**
 * `settings.*`: the settings as the screen shows them (the key is write-only), and an update
 * merged over the stored settings; a new service, key or dialect reconnects.
 */
import { keyTransportProblem } from '@eo/api-client';
import { ContractError, type Settings, type settingsMethods } from '../../shared/contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { makeKeyBinding } from '../../backend/key-binding';
import type { StoredSettings } from '../../backend/local-store';
import type { Secrets } from '../../backend/secrets';

export type SettingsHandlers = HandlersFor<keyof typeof settingsMethods>;

export interface SettingsDeps {
  readonly settings: () => StoredSettings;
  /** Stores the settings and makes them the current ones. */
  readonly save: (next: StoredSettings) => void;
  readonly keys: ReturnType<typeof makeKeyBinding>;
  readonly secrets: Secrets;
  /** Bytes of the mirror, the tile cache and the settings on disk. */
  readonly storageBytes: () => number;
  /**
   * The service, its key, its dialect or "Work offline" changed: a new connection (`stopSync`: a
   * new URL, or working offline now, so a running sync is stopped).
   */
  readonly reconnect: (stopSync: boolean) => void;
  /** The sync interval changed. */
  readonly reschedule: () => void;
}

export function settingsHandlers(deps: SettingsDeps): SettingsHandlers {
  const { keys, secrets } = deps;

  function settingsView(): Settings {
    const settings = deps.settings();
    return {
      serviceUrl: settings.serviceUrl,
      dialect: settings.dialect,
      apiKeySet: keys.isSet(settings.serviceUrl),
      apiKeyStorage: secrets.storage(),
      apiKeyFor: keys.bindingFor(settings.serviceUrl),
      keptKeys: keys.keptFor(),
      mirror: settings.mirror,
      syncIntervalMinutes: settings.syncIntervalMinutes,
      tileUrl: settings.tileUrl,
      idempotency: settings.idempotency,
      autoSendOrders: settings.autoSendOrders,
      imagery: settings.imagery,
      imageryBudgetMb: settings.imageryBudgetMb,
      workOffline: settings.workOffline,
      storageBytes: deps.storageBytes(),
    };
  }

  return {
    'settings.get': () => settingsView(),
    'settings.update': (u) => {
      const problem = u.serviceUrl ? keyTransportProblem(u.serviceUrl) : null;
      if (problem) {
        throw new ContractError('invalid_argument', `serviceUrl: ${problem}`, {
          issues: [{ path: 'serviceUrl', message: problem }],
        });
      }
      const before: StoredSettings = deps.settings();
      const next: StoredSettings = {
        serviceUrl: u.serviceUrl !== undefined ? u.serviceUrl : before.serviceUrl,
        dialect: u.dialect ?? before.dialect,
        mirror: { ...before.mirror, ...u.mirror },
        syncIntervalMinutes: u.syncIntervalMinutes ?? before.syncIntervalMinutes,
        tileUrl: u.tileUrl !== undefined ? u.tileUrl : before.tileUrl,
        idempotency: u.idempotency ?? before.idempotency,
        autoSendOrders: u.autoSendOrders ?? before.autoSendOrders,
        imagery: u.imagery ?? before.imagery,
        imageryBudgetMb: u.imageryBudgetMb ?? before.imageryBudgetMb,
        workOffline: u.workOffline ?? before.workOffline,
      };
      deps.save(next);
      // A key given is the new service's; the keys of other services stay kept for them.
      let keyChanged = true;
      if (u.apiKey !== undefined) keys.set(u.apiKey, next.serviceUrl);
      else keyChanged = keys.follow(next.serviceUrl);
      if (u.forgetKey !== undefined && keys.forget(u.forgetKey)) {
        keyChanged ||= u.forgetKey === keys.bindingFor(next.serviceUrl);
      }
      const dialectChanged = next.dialect !== before.dialect;
      const serviceChanged = next.serviceUrl !== before.serviceUrl;
      // Working offline stops whatever talks to the service; back online reconnects at once.
      const offlineChanged = next.workOffline !== before.workOffline;
      if (serviceChanged || keyChanged || dialectChanged || offlineChanged) {
        deps.reconnect(serviceChanged || next.workOffline);
      }
      if (next.syncIntervalMinutes !== before.syncIntervalMinutes) deps.reschedule();
      return settingsView();
    },
  };
}
