/**
 * The window's online/offline events go to the backend as `connectivity.networkChanged`
 * signals while the app is mounted; they never set the indicator themselves (the backend's
 * check does, announced with `connectivity.changed`).
 */
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { mountApp } from './mount-app';
import { createMemoryBridge, type MemoryBridge } from './memory-bridge';
import { provideBridge } from '../stores/bridge-provider';
import { markResultsShown } from '../ui/first-screen';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 3 });
  provideBridge(bridge);
  // The app asks for the connectivity once its first screen is up.
  markResultsShown();
});

const signals = () =>
  bridge.calls.filter((c) => c.method === 'connectivity.networkChanged').map((c) => c.input);

describe('network signals', () => {
  it('each online/offline event asks the backend to check; the indicator waits for its answer', async () => {
    const wrapper = mountApp();
    await flushPromises();
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Online');

    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    await flushPromises();
    expect(signals()).toEqual([{ reason: 'offline' }, { reason: 'online' }]);
    // navigator.onLine said "offline" a moment ago: no verdict on the service.
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Online');

    wrapper.unmount();
    window.dispatchEvent(new Event('offline'));
    await flushPromises();
    expect(signals()).toHaveLength(2);
  });
});
