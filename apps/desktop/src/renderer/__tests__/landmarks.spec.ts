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
  // One main landmark on every screen: the app's screen area (the skip link's target). The
  // catalog stays mounted (hidden) under every other screen: it must not bring a second along,
  // and no screen brings its own.
  it.each(['/catalog', '/orders', '/aois', '/indices', '/deliveries', '/jobs', '/outbox'])(
    'has exactly one <main>, the screen area, on %s',
    async (address) => {
      const wrapper = mountApp(address);
      await flushPromises();
      const mains = document.querySelectorAll('main');
      expect(mains.length).toBe(1);
      expect(mains[0]!.id).toBe('main');
      expect(wrapper.find('.catalog main').exists()).toBe(false);
      wrapper.unmount();
    },
  );
});
