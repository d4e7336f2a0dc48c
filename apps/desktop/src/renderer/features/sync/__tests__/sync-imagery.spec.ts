/**
 * The Sync screen shows the pictures' pass while it runs and what is stored after it, and what
 * the saved archive searches keep offline.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useSettingsStore } from '../../../stores/settings-store';
import SyncScreen from '../SyncScreen.vue';
import { createAppRouter } from '../../../router';
import { createMemoryHistory } from 'vue-router';
import { useSyncStore } from '../../../stores/sync-store';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 20 });
  provideBridge(bridge);
});

describe('SyncScreen pictures', () => {
  it('shows the imagery progress, then the counts and what was not fetched', async () => {
    await useSettingsStore().load();
    const stop = useSyncStore().listen();
    const wrapper = mount(SyncScreen, {
      global: { plugins: [createAppRouter(createMemoryHistory())] },
    });
    await flushPromises();
    expect(wrapper.find('[data-test="imagery-counts"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="archive-counts"]').exists()).toBe(false);

    await wrapper.find('button.btn--primary').trigger('click');
    await flushPromises();
    bridge.emit('sync.progress', { resource: 'catalogs', seen: 20, total: 20 });
    bridge.emit('sync.imagery', { seen: 3, total: 20, bytes: 3 * 1024 * 1024 });
    await flushPromises();
    expect(wrapper.find('[data-test="progress"]').text()).toContain('Pictures: 3 of 20 (3 MB)');

    bridge.emit('sync.finished', {
      ...bridge.syncStatus,
      running: false,
      imagery: {
        thumbnails: 17,
        overviews: 0,
        bytes: 17 * 1024 * 1024,
        lastRun: { fetched: 17, failed: 1, overBudget: 2, lastError: 'HTTP 500' },
      },
      archive: { searches: 2, scenes: 1, thumbnails: 5, overviews: 0, bytes: 5 * 1024 * 1024 },
    });
    await flushPromises();
    const counts = wrapper.find('[data-test="imagery-counts"]').text();
    expect(counts).toContain('17 thumbnails');
    expect(counts).toContain('0 overviews');
    expect(counts).toContain('17 MB');
    const problem = wrapper.find('[data-test="imagery-problem"]').text();
    expect(problem).toContain('1 could not be fetched (HTTP 500)');
    expect(problem).toContain('2 not fetched: the space for pictures is full');
    expect(wrapper.find('[data-test="archive-counts"]').text()).toMatch(
      /^Archive offline:\s+2 saved searches,\s+1 scene,\s+5 thumbnails,\s+5 MB$/,
    );
    stop();
  });
});
