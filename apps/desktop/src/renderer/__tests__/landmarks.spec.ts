import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { mountApp } from './mount-app';
import { createMemoryBridge } from './memory-bridge';
import { provideBridge } from '../stores/bridge-provider';

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 5 }));
});

describe('landmarks', () => {
  // The catalog stays mounted (hidden) under every other screen: it must not bring a second
  // main landmark along.
  it.each(['/catalog', '/orders', '/aois', '/indices', '/deliveries', '/jobs', '/outbox'])(
    'has at most one <main> on %s',
    async (address) => {
      const wrapper = mountApp(address);
      await flushPromises();
      expect(document.querySelectorAll('main').length).toBeLessThanOrEqual(1);
      expect(wrapper.find('.catalog main').exists()).toBe(false);
      wrapper.unmount();
    },
  );
});
