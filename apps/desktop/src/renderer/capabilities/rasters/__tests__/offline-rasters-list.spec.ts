import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OfflineRasterView } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import OfflineRastersList from '../OfflineRastersList.vue';
import { useTakesStore } from '../takes-store';

let bridge: MemoryBridge;
beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge();
  provideBridge(bridge);
});
afterEach(() => useTakesStore().stopFollowing());

const raster = (patch: Partial<OfflineRasterView>): OfflineRasterView => ({
  id: 'off_1',
  state: 'stored',
  scene: { kind: 'catalog', ref: 'rec-1', sceneId: 'S2_20240620' },
  areaLabel: 'AOI Field 7',
  resolution: 'native',
  bytes: 3 * 2 ** 20,
  plannedBytes: 3 * 2 ** 20,
  fetchedBytes: 3 * 2 ** 20,
  message: null,
  createdAt: 1,
  storedAt: 2,
  raster: null,
  problem: null,
  ...patch,
});

describe('offline rasters on the Sync screen and in Settings', () => {
  it('lists each with its bytes and state, the budget used of its limit; resume and remove', async () => {
    bridge.offlineRasters = {
      rasters: [
        raster({}),
        raster({
          id: 'off_2',
          state: 'fetching',
          areaLabel: '2 km around 46.2, 6.1',
          bytes: null,
          plannedBytes: 2 * 2 ** 20,
          fetchedBytes: 2 ** 20,
          storedAt: null,
        }),
      ],
      bytes: 3 * 2 ** 20,
      budget: { limitBytes: 64 * 2 ** 20, quicklookBytes: 13 * 2 ** 20, usedBytes: 16 * 2 ** 20 },
    };
    const w = mount(OfflineRastersList);
    await flushPromises();
    expect(w.get('[data-test="imagery-budget"]').text()).toMatch(
      /16(\.0)? MB of 64(\.0)? MB used \(offline rasters 3(\.0)? MB, quicklooks 13(\.0)? MB\)/,
    );
    expect(w.get('meter[aria-label="Imagery budget used"]').attributes('value')).toBe('25');
    const stored = w.get('[data-test="offline-raster-off_1"]');
    expect(stored.get('[data-test="offline-raster-bytes"]').text()).toMatch(/3(\.0)? MB/);
    expect(stored.get('[data-test="offline-raster-state"]').text()).toBe('Stored');
    expect(stored.find('[data-test="offline-raster-resume"]').exists()).toBe(false);
    // Cut by a pause or a quit: what came is kept, and Resume goes on from it.
    const paused = w.get('[data-test="offline-raster-off_2"]');
    expect(paused.get('[data-test="offline-raster-state"]').text()).toMatch(
      /Paused at 1(\.0)? MB of 2(\.0)? MB/,
    );
    await paused.get('[data-test="offline-raster-resume"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'rasters.resume')?.input).toEqual({
      id: 'off_2',
    });
    await stored.get('[data-test="offline-raster-remove"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'rasters.remove')?.input).toEqual({
      id: 'off_1',
    });
    expect(w.find('[data-test="offline-raster-off_1"]').exists()).toBe(false);
    w.unmount();
  });

  it('a failed one says why and offers Resume, on its row and on its take', async () => {
    bridge.offlineRasters = {
      rasters: [
        raster({
          id: 'off_3',
          state: 'failed',
          message: 'the service could not prepare download dl_9',
          bytes: null,
          fetchedBytes: 0,
          storedAt: null,
        }),
      ],
      bytes: 0,
    };
    const w = mount(OfflineRastersList);
    await flushPromises();
    const row = w.get('[data-test="offline-raster-off_3"]');
    expect(row.get('[data-test="offline-raster-state"]').text()).toBe(
      'Failed: the service could not prepare download dl_9',
    );
    await row.get('[data-test="offline-raster-resume"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'rasters.resume').map((c) => c.input)).toEqual([
      { id: 'off_3' },
    ]);
    // The take that failed here: Resume on its progress takes up the same row.
    bridge.offlineTakes = [
      {
        key: 'k-3',
        rasterId: 'off_3',
        sceneId: 'rec-1',
        areaLabel: 'AOI Field 7',
        phase: 'failed',
        done: 2,
        total: 4,
        bytes: 2 ** 20,
        plannedBytes: 2 * 2 ** 20,
        error: 'the link was lost',
        startedAt: 5,
      },
    ];
    await useTakesStore().refresh();
    await flushPromises();
    expect(row.get('[data-test="take-progress"]').text()).toBe('Failed: the link was lost');
    await row.get('[data-test="take-resume"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'rasters.resume').map((c) => c.input)).toEqual([
      { id: 'off_3' },
      { id: 'off_3' },
    ]);
    w.unmount();
  });

  it('says where to take a site offline when there is none', async () => {
    const w = mount(OfflineRastersList);
    await flushPromises();
    expect(w.get('[data-test="offline-rasters-empty"]').text()).toMatch(/order item/);
    w.unmount();
  });
});
