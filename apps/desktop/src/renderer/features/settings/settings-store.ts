/**
 * Connection & settings: the backend's settings (the API key is write-only: the backend only
 * says whether one is set), the form's validation, saving, and clearing the mirror.
 */
import { defineStore } from 'pinia';
import type { AppInfo, Settings, SettingsUpdate } from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { useCatalogStore } from '../catalog/catalog-store';
import { fieldErrors, readableError, type ReadableError } from '../../stores/errors';

export interface SettingsForm {
  serviceUrl: string;
  /** The configured service's profile: what requests look like and how creates are followed. */
  dialect: Settings['dialect'];
  /** Typed new key; '' keeps the stored one. Never filled from the backend. */
  apiKey: string;
  mirror: Settings['mirror'];
  /** As typed: a string, or a number once the number input holds one. */
  syncIntervalMinutes: string | number;
  tileUrl: string;
  /** Whether creates in doubt may be sent again: auto (as the service says) or forced. */
  idempotency: Settings['idempotency'];
  /** Send queued orders without the review of their prices (orders cost money: default off). */
  autoSendOrders: boolean;
  /** Quicklooks kept offline: off, thumbnails, or thumbnails and overviews. */
  imagery: Settings['imagery'];
  /** Megabytes the pictures may take, as typed. */
  imageryBudgetMb: string | number;
}

export type SettingsField =
  'serviceUrl' | 'apiKey' | 'syncIntervalMinutes' | 'tileUrl' | 'imageryBudgetMb' | 'form';

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Field messages for a form, before anything is sent. Empty object: valid. */
export function validateSettingsForm(f: SettingsForm): Partial<Record<SettingsField, string>> {
  const errors: Partial<Record<SettingsField, string>> = {};
  const url = f.serviceUrl.trim();
  if (url && !isHttpUrl(url)) {
    errors.serviceUrl = 'Enter the full service address, starting with https:// (or http://).';
  }
  if (f.apiKey !== '' && f.apiKey.trim() === '') errors.apiKey = 'The API key cannot be blank.';
  if (f.apiKey !== '' && /\s/.test(f.apiKey.trim())) {
    errors.apiKey = 'The API key has spaces in it; paste it again without them.';
  }
  const interval = String(f.syncIntervalMinutes).trim();
  const n = Number(interval);
  if (interval === '' || !Number.isInteger(n) || n < 0 || n > 1440) {
    errors.syncIntervalMinutes =
      'Minutes between syncs: a whole number from 0 (manual only) to 1440.';
  }
  const budget = Number(String(f.imageryBudgetMb).trim());
  if (String(f.imageryBudgetMb).trim() === '' || !Number.isInteger(budget) || budget < 1) {
    errors.imageryBudgetMb = 'Megabytes for pictures: a whole number, at least 1.';
  }
  const tile = f.tileUrl.trim();
  if (tile) {
    const missing = ['{z}', '{x}', '{y}'].filter((p) => !tile.includes(p));
    if (!isHttpUrl(tile.replace(/\{[xyz]\}/g, '0'))) {
      errors.tileUrl = 'Enter a tile address starting with https://.';
    } else if (missing.length > 0) {
      errors.tileUrl = `The tile address needs ${missing.join(', ')} placeholders, e.g. https://tile.example.org/{z}/{x}/{y}.png`;
    }
  }
  return errors;
}

export function formFromSettings(s: Settings): SettingsForm {
  return {
    serviceUrl: s.serviceUrl ?? '',
    dialect: s.dialect,
    apiKey: '',
    mirror: { ...s.mirror },
    syncIntervalMinutes: String(s.syncIntervalMinutes),
    tileUrl: s.tileUrl ?? '',
    idempotency: s.idempotency,
    autoSendOrders: s.autoSendOrders,
    imagery: s.imagery,
    imageryBudgetMb: String(s.imageryBudgetMb),
  };
}

/** The update to send: only what changed, the key only when a new one was typed. */
export function updateFromForm(f: SettingsForm, current: Settings): SettingsUpdate {
  const update: Record<string, unknown> = {};
  const url = f.serviceUrl.trim() || null;
  if (url !== current.serviceUrl) update['serviceUrl'] = url;
  if (f.dialect !== current.dialect) update['dialect'] = f.dialect;
  if (f.apiKey.trim() !== '') update['apiKey'] = f.apiKey.trim();
  if (JSON.stringify(f.mirror) !== JSON.stringify(current.mirror))
    update['mirror'] = { ...f.mirror };
  const interval = Number(String(f.syncIntervalMinutes).trim());
  if (interval !== current.syncIntervalMinutes) update['syncIntervalMinutes'] = interval;
  const tile = f.tileUrl.trim() || null;
  if (tile !== current.tileUrl) update['tileUrl'] = tile;
  if (f.idempotency !== current.idempotency) update['idempotency'] = f.idempotency;
  if (f.autoSendOrders !== current.autoSendOrders) update['autoSendOrders'] = f.autoSendOrders;
  if (f.imagery !== current.imagery) update['imagery'] = f.imagery;
  const budget = Number(String(f.imageryBudgetMb).trim());
  if (budget !== current.imageryBudgetMb) update['imageryBudgetMb'] = budget;
  return update as SettingsUpdate;
}

export const useSettingsStore = defineStore('settings', {
  state: () => ({
    settings: null as Settings | null,
    /** Version, mode, and the built-in demo service the app started when none is configured. */
    info: null as AppInfo | null,
    loading: false,
    saving: false,
    clearing: false,
    loadError: null as ReadableError | null,
    saveError: null as ReadableError | null,
    fieldErrors: {} as Partial<Record<SettingsField, string>>,
    /** Why the "Work offline" switch could not be changed (null: it was, or never tried). */
    switchError: null as ReadableError | null,
    switching: false,
    /** Set after a successful save, for a short confirmation. */
    savedAt: null as number | null,
  }),
  getters: {
    /** The service the app talks to: the configured one, else the built-in demo service. */
    effectiveServiceUrl: (s): string | null =>
      s.settings?.serviceUrl ?? s.info?.embeddedServiceUrl ?? null,
    configured(): boolean {
      return Boolean(this.effectiveServiceUrl && this.settings?.apiKeySet);
    },
    usingEmbedded: (s): boolean =>
      Boolean(s.settings && !s.settings.serviceUrl && s.info?.embeddedServiceUrl),
    /** The profile of the service the app talks to: the built-in one always speaks spec. */
    serviceDialect(): Settings['dialect'] {
      return this.settings?.serviceUrl ? this.settings.dialect : 'spec';
    },
  },
  actions: {
    async load(): Promise<void> {
      this.loading = true;
      this.loadError = null;
      try {
        const bridge = useBridge();
        const [settings, info] = await Promise.all([
          bridge.call('settings.get'),
          bridge.call('app.info'),
        ]);
        this.settings = settings;
        this.info = info;
      } catch (err) {
        this.loadError = readableError(err);
      } finally {
        this.loading = false;
      }
    },

    /** Validate, send what changed; returns true when saved. */
    async save(form: SettingsForm): Promise<boolean> {
      this.saveError = null;
      this.fieldErrors = validateSettingsForm(form);
      if (Object.keys(this.fieldErrors).length > 0 || !this.settings) return false;
      const update = updateFromForm(form, this.settings);
      if (Object.keys(update).length === 0) {
        this.savedAt = Date.now();
        return true;
      }
      this.saving = true;
      try {
        this.settings = await useBridge().call('settings.update', update);
        this.savedAt = Date.now();
        return true;
      } catch (err) {
        this.saveError = readableError(err);
        const fields = fieldErrors(err);
        for (const [path, message] of Object.entries(fields)) {
          const key = path.split('.')[0] as SettingsField;
          this.fieldErrors[key in validateKeys ? key : 'form'] = message;
        }
        return false;
      } finally {
        this.saving = false;
      }
    },

    /**
     * The "Work offline" switch, applied at once (not with the form's Save): the backend stops
     * or restarts everything that talks to the service and announces the connectivity.
     */
    async setWorkOffline(on: boolean): Promise<boolean> {
      this.switchError = null;
      this.switching = true;
      try {
        this.settings = await useBridge().call('settings.update', { workOffline: on });
        return true;
      } catch (err) {
        this.switchError = readableError(err);
        return false;
      } finally {
        this.switching = false;
      }
    },

    /**
     * Remove the API key of `service` (one of `keptKeys`), by default the configured service's
     * (syncing stops until a new one is entered).
     */
    async forgetKey(service?: string): Promise<boolean> {
      this.saveError = null;
      this.saving = true;
      try {
        this.settings = await useBridge().call(
          'settings.update',
          service === undefined ? { apiKey: null } : { forgetKey: service },
        );
        return true;
      } catch (err) {
        this.saveError = readableError(err);
        return false;
      } finally {
        this.saving = false;
      }
    },

    async clearMirror(): Promise<boolean> {
      this.clearing = true;
      this.saveError = null;
      try {
        await useBridge().call('mirror.clear');
        await this.load();
        // The shown results were read from the mirror just emptied (no event says so).
        await useCatalogStore().refresh();
        return true;
      } catch (err) {
        this.saveError = readableError(err);
        return false;
      } finally {
        this.clearing = false;
      }
    },
  },
});

const validateKeys: Record<SettingsField, true> = {
  serviceUrl: true,
  apiKey: true,
  syncIntervalMinutes: true,
  tileUrl: true,
  imageryBudgetMb: true,
  form: true,
};
