import { buildCatalogRecord, createRng } from '@eo/domain/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../shared/contract';
import App from '../../App.vue';
import { createMemoryBridge, type MemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../../stores/bridge-provider';
import { useSettingsStore } from '../../stores/settings';
import SettingsScreen from '../SettingsScreen.vue';
import SyncScreen from '../SyncScreen.vue';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 20 });
  provideBridge(bridge);
});

async function mountSettings() {
  await useSettingsStore().load();
  const wrapper = mount(SettingsScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

describe('SettingsScreen', () => {
  it('never shows the stored API key, only that one is set', async () => {
    const wrapper = await mountSettings();
    const key = wrapper.find('input[name="apiKey"]');
    expect(key.attributes('type')).toBe('password');
    expect((key.element as HTMLInputElement).value).toBe('');
    expect(wrapper.find('[data-test="key-state"]').text()).toContain('A key is stored');
    expect((wrapper.find('input[name="serviceUrl"]').element as HTMLInputElement).value).toBe(
      'https://imagery.example.org',
    );
    expect(wrapper.find('[data-test="storage"]').text()).toBe('5 MB');
  });

  it('says how the key is kept: encrypted only where it is, a private file in browser mode', async () => {
    bridge.settings = { ...bridge.settings, apiKeyStorage: 'owner-only-file' };
    let state = (await mountSettings()).find('[data-test="key-state"]').text();
    expect(state).toContain('a file only you can read');
    expect(state).not.toMatch(/stored encrypted|encrypted with/);
    document.body.innerHTML = '';
    bridge.settings = { ...bridge.settings, apiKeyStorage: 'os-keychain' };
    state = (await mountSettings()).find('[data-test="key-state"]').text();
    expect(state).toContain('encrypted with the system keychain');
  });

  it('shows validation messages beside the fields and sends nothing', async () => {
    const wrapper = await mountSettings();
    await wrapper.find('input[name="serviceUrl"]').setValue('imagery.example.org');
    await wrapper.find('input[name="tileUrl"]').setValue('https://t.example.org/{z}/{x}.png');
    await wrapper.find('input[name="syncIntervalMinutes"]').setValue('5000');
    const before = bridge.calls.length;
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    expect(bridge.calls.length).toBe(before);
    expect(wrapper.find('#err-serviceUrl').text()).toMatch(/starting with https:\/\//);
    expect(wrapper.find('#err-tileUrl').text()).toMatch(/\{y\}/);
    expect(wrapper.find('#err-syncIntervalMinutes').text()).toMatch(/0 \(manual only\) to 1440/);
    expect(wrapper.find('input[name="serviceUrl"]').attributes('aria-invalid')).toBe('true');
  });

  it('saves a new key write-only and empties the field afterwards', async () => {
    bridge.settings = { ...bridge.settings, apiKeySet: false };
    const wrapper = await mountSettings();
    expect(wrapper.find('[data-test="key-state"]').text()).toBe('No key stored yet.');
    await wrapper.find('input[name="apiKey"]').setValue('k-123456');
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    const update = bridge.calls.find((c) => c.method === 'settings.update');
    expect(update?.input).toEqual({ apiKey: 'k-123456' });
    expect((wrapper.find('input[name="apiKey"]').element as HTMLInputElement).value).toBe('');
    expect(wrapper.find('[data-test="key-state"]').text()).toContain('A key is stored');
    expect(wrapper.text()).toContain('Saved.');
    // Saving checks the connection again, so the indicator tells the truth at once.
    expect(bridge.calls.some((c) => c.method === 'connectivity.check')).toBe(true);
  });

  it('forgets the stored key on request', async () => {
    const wrapper = await mountSettings();
    await wrapper.find('button.forget').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'settings.update')?.input).toEqual({
      apiKey: null,
    });
    expect(wrapper.find('[data-test="key-state"]').text()).toBe('No key stored yet.');
    expect(wrapper.find('button.forget').exists()).toBe(false);
  });

  it('asks before clearing the mirror', async () => {
    const wrapper = await mountSettings();
    await wrapper.find('button.btn--danger').trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'mirror.clear')).toBe(false);
    const dialog = wrapper.find('[role="alertdialog"]');
    expect(dialog.text()).toContain('Delete all mirrored data (5 MB)?');
    // Focus goes to Cancel, the safe choice.
    expect(document.activeElement?.textContent?.trim()).toBe('Cancel');
    await dialog.findAll('button')[1]!.trigger('click');
    expect(wrapper.find('[role="alertdialog"]').exists()).toBe(false);

    await wrapper.find('button.btn--danger').trigger('click');
    await wrapper.find('[role="alertdialog"] button.btn--danger').trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'mirror.clear')).toBe(true);
    expect(wrapper.text()).toContain('The mirror is empty.');
    expect(wrapper.find('[data-test="storage"]').text()).toBe('0 B');
  });

  it('has an error state when the settings cannot be read', async () => {
    bridge.failWith('settings.get', new ContractError('internal', 'settings file unreadable'));
    const wrapper = await mountSettings();
    expect(wrapper.find('[role="alert"]').text()).toContain('settings file unreadable');
    bridge.failWith('settings.get', null);
    await wrapper.find('[role="alert"] button').trigger('click');
    await flushPromises();
    expect(wrapper.find('form').exists()).toBe(true);
  });
});

describe('SyncScreen', () => {
  it('shows per-resource status, a progress bar while running, and errors with what to do', async () => {
    await useSettingsStore().load();
    const { useSyncStore } = await import('../../stores/sync');
    const sync = useSyncStore();
    const stop = sync.listen();
    const wrapper = mount(SyncScreen);
    await flushPromises();
    const orders = wrapper.find('[data-resource="orders"]');
    expect(orders.text()).toContain('Orders');
    expect(orders.text()).toContain('12');
    expect(wrapper.find('[data-resource="catalogs"]').text()).toContain('Never');
    expect(wrapper.find('[data-test="progress"]').exists()).toBe(false);

    await wrapper.find('button.btn--primary').trigger('click');
    await flushPromises();
    bridge.emit('sync.progress', { resource: 'orders', seen: 6, total: 12 });
    await flushPromises();
    const progress = wrapper.find('[data-test="progress"]');
    expect(progress.text()).toContain('Orders: 6 of 12');
    expect(progress.find('progress').attributes('value')).toBe('25');

    bridge.emit('sync.finished', {
      running: false,
      resources: [
        {
          resource: 'orders',
          lastCompleteAt: '2024-05-17T10:00:00.000Z',
          lastError: null,
          count: 12,
        },
        {
          resource: 'catalogs',
          lastCompleteAt: null,
          lastError: { code: 'offline', message: 'connect ECONNREFUSED', hint: '' },
          count: 0,
        },
      ],
    });
    await flushPromises();
    expect(wrapper.find('[data-test="progress"]').exists()).toBe(false);
    const problem = wrapper.find('[data-resource="catalogs"]').text();
    expect(problem).toContain('connect ECONNREFUSED');
    expect(problem).toMatch(/Check the network/);
    stop();
  });

  it('says how many records differ from the spec, could not be indexed, or were not received', async () => {
    await useSettingsStore().load();
    bridge.syncStatus = {
      running: false,
      resources: [
        {
          resource: 'catalogs',
          lastCompleteAt: '2024-05-17T07:00:00.000Z',
          lastError: null,
          count: 250,
          drift: 7,
          notIndexed: 2,
          incomplete: true,
        },
        { resource: 'orders', lastCompleteAt: null, lastError: null, count: 0 },
      ],
    };
    const wrapper = mount(SyncScreen);
    await flushPromises();
    const catalogs = wrapper.find('[data-resource="catalogs"]');
    expect(catalogs.find('[data-test="drift"]').text()).toMatch(
      /7 records differ from the spec\.\s*2 could not be indexed/,
    );
    expect(catalogs.find('[data-test="incomplete"]').text()).toContain('Nothing was removed');
    expect(catalogs.text()).not.toContain('None');
    expect(wrapper.find('[data-resource="orders"]').text()).toContain('None');
  });

  it("says the mirror holds another service's data, and clears it on request", async () => {
    await useSettingsStore().load();
    bridge.syncStatus = {
      running: false,
      resources: [{ resource: 'catalogs', lastCompleteAt: null, lastError: null, count: 250 }],
      otherServices: ['https://old.example.org', 'embedded'],
    };
    const wrapper = mount(SyncScreen);
    await flushPromises();
    const notice = wrapper.find('[data-test="other-services"]');
    expect(notice.text()).toContain('https://old.example.org');
    expect(notice.text()).toContain('the built-in demo service');
    expect(notice.text()).toMatch(/not from the service now configured/);
    await notice.find('button').trigger('click');
    await wrapper.find('[data-test="confirm-clear"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'mirror.clear')).toBe(true);
    expect(wrapper.find('[data-test="other-services"]').exists()).toBe(false);
  });

  it('sends a first-time user to the settings', async () => {
    bridge.settings = { ...bridge.settings, serviceUrl: null, apiKeySet: false };
    await useSettingsStore().load();
    const wrapper = mount(SyncScreen);
    await flushPromises();
    expect(wrapper.text()).toContain('Not connected yet.');
    expect(wrapper.find('button.btn--primary').text()).toContain('Open Connection & settings');
    await wrapper.find('button.btn--primary').trigger('click');
    expect(wrapper.emitted('openSettings')).toHaveLength(1);
  });
});

describe('App', () => {
  it('fills the catalog when the first sync finishes, without pressing Search', async () => {
    setActivePinia(createPinia());
    bridge = createMemoryBridge({ records: 0 });
    provideBridge(bridge);
    const wrapper = mount(App, { attachTo: document.body });
    await flushPromises();
    expect(wrapper.find('[data-test="total"]').text()).toBe('0');
    const rng = createRng(11);
    for (let i = 0; i < 7; i++) bridge.records.push(buildCatalogRecord({}, { rng }));
    bridge.emit('sync.finished', bridge.syncStatus);
    await flushPromises();
    expect(wrapper.find('[data-test="total"]').text()).toBe('7');
    wrapper.unmount();
    expect(bridge.listenerCount('sync.finished')).toBe(0);
  });

  it('opens on the settings when nothing is configured yet', async () => {
    bridge.settings = { ...bridge.settings, serviceUrl: null, apiKeySet: false };
    bridge.connectivity = { state: 'unconfigured', checkedAt: '2024-05-17T08:00:00.000Z' };
    const wrapper = mount(App, { attachTo: document.body });
    await flushPromises();
    expect(wrapper.find('[data-screen="settings"]').attributes('aria-current')).toBe('page');
    expect(wrapper.find('#settings-title').exists()).toBe(true);
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Not set up');
    wrapper.unmount();
  });

  it('starts on the catalog with results, and switches screens from the header', async () => {
    const wrapper = mount(App, { attachTo: document.body });
    await flushPromises();
    expect(wrapper.find('[data-screen="catalog"]').attributes('aria-current')).toBe('page');
    expect(wrapper.find('[data-test="total"]').text()).toBe('20');
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Online');
    bridge.emit('connectivity.changed', {
      state: 'offline',
      checkedAt: '2024-05-17T08:05:00.000Z',
      message: 'connect ECONNREFUSED',
    });
    await flushPromises();
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Offline');
    expect(wrapper.find('[data-test="offline-note"]').text()).toMatch(
      /^Offline: results come from this computer's mirror \(the catalog was never synced\)\.$/,
    );
    await wrapper.find('[data-screen="sync"]').trigger('click');
    expect(wrapper.find('#sync-title').exists()).toBe(true);
    wrapper.unmount();
  });
});
