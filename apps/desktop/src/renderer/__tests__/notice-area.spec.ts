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

describe('the notices strip', () => {
  // Floating toasts lay over the AOI form's "Queue AOI" and the basket panel at 1024 px: the
  // notices live in a strip of their own after the screen, in the page's flow, never over it.
  it('holds the basket and outbox notices after the screen, in the flow of the page', async () => {
    const wrapper = mountApp('/aois');
    await flushPromises();
    const area = document.querySelector('[data-test="notice-area"]');
    expect(area).not.toBeNull();
    expect(area!.previousElementSibling?.id).toBe('main');
    expect(area!.querySelector('[data-test="batch-notification-region"]')).not.toBeNull();
    expect(area!.querySelector('.basket-toast-region')).not.toBeNull();
    expect(document.querySelector('main [data-test="notice-area"]')).toBeNull();
    wrapper.unmount();
  });
});
