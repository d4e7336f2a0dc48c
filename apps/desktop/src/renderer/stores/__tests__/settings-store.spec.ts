import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../bridge-provider';
import { useCatalogStore } from '../catalog-store';
import {
  formFromSettings,
  useSettingsStore,
  validateSettingsForm,
  type SettingsForm,
} from '../settings-store';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge();
  provideBridge(bridge);
});

function form(overrides: Partial<SettingsForm> = {}): SettingsForm {
  return { ...formFromSettings(bridge.settings), ...overrides };
}

describe('validateSettingsForm', () => {
  it('explains each wrong field', () => {
    expect(
      validateSettingsForm(
        form({
          serviceUrl: 'imagery.example.org',
          apiKey: 'abc def',
          syncIntervalMinutes: '2000',
          tileUrl: 'https://tiles.example.org/{z}/{x}.png',
        }),
      ),
    ).toEqual({
      serviceUrl: 'Enter the full service address, starting with https:// (or http://).',
      apiKey: 'The API key has spaces in it; paste it again without them.',
      syncIntervalMinutes: 'Minutes between syncs: a whole number from 0 (manual only) to 1440.',
      tileUrl:
        'The tile address needs {y} placeholders, e.g. https://tile.example.org/{z}/{x}/{y}.png',
    });
    expect(
      validateSettingsForm(form({ syncIntervalMinutes: '1.5' })).syncIntervalMinutes,
    ).toBeDefined();
    expect(validateSettingsForm(form({ tileUrl: 'ftp://x/{z}/{x}/{y}' })).tileUrl).toMatch(/https/);
    expect(validateSettingsForm(form())).toEqual({});
  });
});

describe('settings store', () => {
  it('loads settings without ever holding the API key', async () => {
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.settings?.apiKeySet).toBe(true);
    expect(JSON.stringify(settings.$state)).not.toMatch(/apiKey"/);
    expect(formFromSettings(settings.settings!).apiKey).toBe('');
    expect(settings.configured).toBe(true);
  });

  it('counts the built-in demo service as configured', async () => {
    bridge.settings = { ...bridge.settings, serviceUrl: null };
    bridge.embeddedServiceUrl = 'http://127.0.0.1:43025';
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.configured).toBe(true);
    expect(settings.usingEmbedded).toBe(true);
    expect(settings.effectiveServiceUrl).toBe('http://127.0.0.1:43025');
    bridge.settings = { ...bridge.settings, apiKeySet: false };
    await settings.load();
    expect(settings.configured).toBe(false);
  });

  it('sends only what changed, and the key only when a new one is typed', async () => {
    const settings = useSettingsStore();
    await settings.load();
    expect(await settings.save(form({ syncIntervalMinutes: '30' }))).toBe(true);
    expect(bridge.calls.at(-1)).toEqual({
      method: 'settings.update',
      input: { syncIntervalMinutes: 30 },
    });
    expect(
      await settings.save(
        form({ apiKey: '  new-key-123  ', tileUrl: 'https://t.example.org/{z}/{x}/{y}.png' }),
      ),
    ).toBe(true);
    expect(bridge.calls.at(-1)?.input).toEqual({
      apiKey: 'new-key-123',
      tileUrl: 'https://t.example.org/{z}/{x}/{y}.png',
    });
    expect(settings.settings?.tileUrl).toBe('https://t.example.org/{z}/{x}/{y}.png');
    expect(await settings.save(form({ dialect: 'provider-v0' }))).toBe(true);
    expect(bridge.calls.at(-1)?.input).toEqual({ dialect: 'provider-v0' });
    // The key is not kept anywhere in the store.
    expect(JSON.stringify(settings.$state)).not.toContain('new-key-123');
  });

  it('sends the Idempotency-Key setting only when it changed', async () => {
    const settings = useSettingsStore();
    await settings.load();
    expect(form().idempotency).toBe('auto');
    expect(await settings.save(form({ idempotency: 'ignored' }))).toBe(true);
    expect(bridge.calls.at(-1)?.input).toEqual({ idempotency: 'ignored' });
    expect(settings.settings?.idempotency).toBe('ignored');
    expect(await settings.save(form({ syncIntervalMinutes: '5' }))).toBe(true);
    expect(bridge.calls.at(-1)?.input).toEqual({ syncIntervalMinutes: 5 });
  });

  it('sends the "send queued orders automatically" setting only when it changed', async () => {
    const settings = useSettingsStore();
    await settings.load();
    expect(form().autoSendOrders).toBe(false);
    expect(await settings.save(form({ autoSendOrders: true }))).toBe(true);
    expect(bridge.calls.at(-1)?.input).toEqual({ autoSendOrders: true });
    expect(settings.settings?.autoSendOrders).toBe(true);
  });

  it('sends the imagery choice and budget when they changed, refuses a budget below 1 MB', async () => {
    const settings = useSettingsStore();
    await settings.load();
    expect(form()).toMatchObject({ imagery: 'thumbnails', imageryBudgetMb: '1024' });
    expect(validateSettingsForm(form({ imageryBudgetMb: '0' })).imageryBudgetMb).toMatch(
      /at least 1/,
    );
    expect(await settings.save(form({ imagery: 'overviews', imageryBudgetMb: '300' }))).toBe(true);
    expect(bridge.calls.at(-1)?.input).toEqual({ imagery: 'overviews', imageryBudgetMb: 300 });
  });

  it('shows the backend’s own validation next to the field', async () => {
    const settings = useSettingsStore();
    await settings.load();
    // Passes the form's check, but the contract refuses credentials in the URL.
    expect(await settings.save(form({ serviceUrl: 'https://user:pw@imagery.example.org' }))).toBe(
      false,
    );
    expect(settings.fieldErrors.serviceUrl).toBe('must be an http(s) URL without user:password@');
    expect(settings.saveError?.title).toBe('Some values are not valid');
  });

  it('does not send an invalid form', async () => {
    const settings = useSettingsStore();
    await settings.load();
    const before = bridge.calls.length;
    expect(await settings.save(form({ serviceUrl: 'not a url' }))).toBe(false);
    expect(bridge.calls.length).toBe(before);
    expect(settings.fieldErrors.serviceUrl).toBeDefined();
  });

  it('clears the mirror and reloads the storage figure', async () => {
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.settings?.storageBytes).toBeGreaterThan(0);
    expect(await settings.clearMirror()).toBe(true);
    expect(settings.settings?.storageBytes).toBe(0);
  });

  it('clearing the mirror empties the shown catalog results', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    expect(catalog.total).toBeGreaterThan(0);
    expect(await useSettingsStore().clearMirror()).toBe(true);
    expect(catalog.total).toBe(0);
    expect(catalog.isEmpty).toBe(true);
  });
});
