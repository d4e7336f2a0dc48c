import { buildCatalogRecord, createRng } from '@eo/domain/testing';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { mountApp } from './mount-app';
import { createMemoryBridge, type MemoryBridge } from './memory-bridge';
import { provideBridge } from '../stores/bridge-provider';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 20 });
  provideBridge(bridge);
});

describe('App', () => {
  it('fills the catalog when the first sync finishes, without pressing Search', async () => {
    setActivePinia(createPinia());
    bridge = createMemoryBridge({ records: 0 });
    provideBridge(bridge);
    const wrapper = mountApp();
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
    bridge.connectivity = {
      state: 'unconfigured',
      checkedAt: '2024-05-17T08:00:00.000Z',
      since: '2024-05-17T08:00:00.000Z',
    };
    const wrapper = mountApp();
    await flushPromises();
    expect(wrapper.find('[data-screen="settings"]').attributes('aria-current')).toBe('page');
    expect(wrapper.find('#settings-title').exists()).toBe(true);
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Not set up');
    wrapper.unmount();
  });

  it('starts on the catalog with results, and switches screens from the header', async () => {
    const wrapper = mountApp();
    await flushPromises();
    expect(wrapper.find('[data-screen="catalog"]').attributes('aria-current')).toBe('page');
    expect(wrapper.find('[data-test="total"]').text()).toBe('20');
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Online');
    bridge.emit('connectivity.changed', {
      state: 'offline',
      checkedAt: '2024-05-17T08:05:00.000Z',
      since: '2024-05-17T08:05:00.000Z',
      message: 'connect ECONNREFUSED',
    });
    await flushPromises();
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Offline');
    expect(wrapper.find('[data-test="offline-note"]').text()).toMatch(
      /^Offline: results come from this computer's mirror \(the catalog was never synced\)\.$/,
    );
    await wrapper.find('[data-screen="sync"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('#sync-title').exists()).toBe(true);
    wrapper.unmount();
  });
});
