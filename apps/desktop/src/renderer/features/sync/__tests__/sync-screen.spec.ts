import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryHistory, type Router } from 'vue-router';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useSettingsStore } from '../../../stores/settings-store';
import { createAppRouter } from '../../../router';
import SyncScreen from '../SyncScreen.vue';

let bridge: MemoryBridge;
let router: Router;
const mountScreen = () => mount(SyncScreen, { global: { plugins: [router] } });

beforeEach(() => {
  router = createAppRouter(createMemoryHistory());
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 20 });
  provideBridge(bridge);
});

describe('SyncScreen', () => {
  it('shows per-resource status, a progress bar while running, and errors with what to do', async () => {
    await useSettingsStore().load();
    const { useSyncStore } = await import('../../../stores/sync-store');
    const sync = useSyncStore();
    const stop = sync.listen();
    const wrapper = mountScreen();
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
    const wrapper = mountScreen();
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
    const wrapper = mountScreen();
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
    const wrapper = mountScreen();
    await flushPromises();
    expect(wrapper.text()).toContain('Not connected yet.');
    expect(wrapper.find('button.btn--primary').text()).toContain('Open Connection & settings');
    await wrapper.find('button.btn--primary').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.name).toBe('settings');
  });
});
