import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OfflineTakeView } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { myPosition } from '../../../map/my-position';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import TakeOffline from '../TakeOffline.vue';
import { useTakesStore } from '../takes-store';

let bridge: MemoryBridge;
beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge();
  provideBridge(bridge);
  myPosition.value = null;
});
afterEach(() => useTakesStore().stopFollowing());

const view = [6.6, 46.5, 6.7, 46.6] as [number, number, number, number];
const props = { scenes: [{ kind: 'catalog' as const, id: 'rec-1' }], gsd: 10, bands: 4, view };

const take = (patch: Partial<OfflineTakeView>): OfflineTakeView => ({
  key: 'take-1',
  rasterId: 'off_1',
  sceneId: 'rec-1',
  areaLabel: '1000 m around',
  phase: 'tiles',
  done: 2,
  total: 4,
  bytes: 100_000,
  plannedBytes: 200_000,
  error: null,
  startedAt: 1,
  ...patch,
});

const takeCall = () => bridge.calls.filter((c) => c.method === 'rasters.take').at(-1)?.input;

describe('Take offline', () => {
  it('without a measured link: the size and the time at 2 and 20 Mbit/s, said so', async () => {
    const w = mount(TakeOffline, { props });
    await flushPromises();
    const text = w.get('[data-test="take-estimate"]').text();
    expect(text).toMatch(/About .*B: .* at 2 Mbit\/s, .* at 20 Mbit\/s \(the link is not measured/);
    await w.get('[data-test="take-resolution"]').setValue('40');
    expect(w.get('[data-test="take-estimate"]').text()).not.toBe(text);
    w.unmount();
  });

  it('with a measured link: one time on it, its rate and round trip named', async () => {
    bridge.link = {
      bitsPerSecond: 4e6,
      roundTripMs: 600,
      rateFrom: 'raster reads',
      samples: 3,
      measuredAt: 1,
    };
    const w = mount(TakeOffline, { props });
    await flushPromises();
    expect(w.get('[data-test="take-estimate"]').text()).toMatch(
      /on this link as measured \(4\.0 Mbit\/s from raster reads, round trip 600 ms\)/,
    );
    expect(w.get('[data-test="take-estimate"]').text()).not.toMatch(/20 Mbit/);
    w.unmount();
  });

  it("around the map's centre without a position (said), around my position once known", async () => {
    const w = mount(TakeOffline, { props });
    await flushPromises();
    expect(w.find('[data-test="take-no-position"]').exists()).toBe(true);
    await w.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    expect(takeCall()).toMatchObject({
      scene: { kind: 'catalog', id: 'rec-1' },
      resolution: 'native',
      area: { kind: 'around', lon: 6.65, lat: 46.55, radiusM: 1000 },
    });
    myPosition.value = { lat: 46.52, lon: 6.61, accuracyM: 12, source: 'Your position' };
    await flushPromises();
    expect(w.text()).toMatch(/Around my position/);
    expect(w.find('[data-test="take-no-position"]').exists()).toBe(false);
    w.unmount();
    const again = mount(TakeOffline, { props });
    await again.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    expect(takeCall()).toMatchObject({ area: { kind: 'around', lon: 6.61, lat: 46.52 } });
    again.unmount();
  });

  it("an AOI asset: the AOI's own area first; the map view and the drawn area as shapes", async () => {
    const aoi = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [6.6, 46.5],
          [6.62, 46.5],
          [6.62, 46.52],
          [6.6, 46.5],
        ] as [number, number][],
      ],
    };
    useCatalogStore().filters.area = { kind: 'polygon', geometry: aoi };
    const w = mount(TakeOffline, {
      props: {
        scenes: [{ kind: 'aoi_asset' as const, id: 'asset-3', aoiId: 'aoi-7' }],
        gsd: 10,
        bands: 4,
        view,
        ownArea: { label: 'AOI Field 7', geometry: aoi },
      },
    });
    await flushPromises();
    await w.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    expect(takeCall()).toEqual({
      scene: { kind: 'aoi_asset', id: 'asset-3', aoiId: 'aoi-7' },
      resolution: 'native',
      area: { kind: 'shape', label: 'AOI Field 7', geometry: aoi },
    });
    await w.get('input[value="view"]').setValue(true);
    await w.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    expect(takeCall()).toMatchObject({
      area: { kind: 'shape', label: 'Map view', geometry: { type: 'Polygon' } },
    });
    await w.get('input[value="drawn"]').setValue(true);
    await w.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    expect(takeCall()).toMatchObject({ area: { kind: 'shape', label: 'Drawn area' } });
    // A field file's areas: nothing to take until one is picked.
    await w.get('input[value="file"]').setValue(true);
    expect(w.find('[data-test="take-no-area"]').text()).toMatch(/Pick a field file/);
    expect(w.get('[data-test="take-start"]').attributes('disabled')).toBeDefined();
    w.unmount();
  });

  it('the basket: one take per scene, same site; each with Pause and Cancel, then Resume', async () => {
    const w = mount(TakeOffline, {
      props: {
        ...props,
        scenes: [
          { kind: 'catalog' as const, id: 'rec-1' },
          { kind: 'catalog' as const, id: 'rec-2' },
        ],
      },
    });
    await flushPromises();
    const one = w.get('[data-test="take-estimate"]').text();
    expect(w.text()).toMatch(/2 scenes/);
    bridge.offlineTakes = [
      take({ key: 'take-1' }),
      take({ key: 'take-2', rasterId: 'off_2', sceneId: 'rec-2' }),
    ];
    await w.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    const calls = bridge.calls.filter((c) => c.method === 'rasters.take');
    expect(calls.map((c) => (c.input as { scene: { id: string } }).scene.id)).toEqual([
      'rec-1',
      'rec-2',
    ]);
    expect(w.findAll('[data-test="take-progress"]').map((p) => p.text())).toEqual([
      expect.stringMatching(/Tiles 2 of 4/),
      expect.stringMatching(/Tiles 2 of 4/),
    ]);
    expect(one).toMatch(/About/);
    await w.get('[data-test="take-pause"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'rasters.pause')?.input).toEqual({
      key: 'take-1',
    });
    bridge.offlineTakes = [
      take({ key: 'take-1', phase: 'paused' }),
      take({ key: 'take-2', rasterId: 'off_2' }),
    ];
    await useTakesStore().refresh();
    await flushPromises();
    expect(w.findAll('[data-test="take-progress"]')[0]!.text()).toMatch(/Paused at .*kept/);
    await w.get('[data-test="take-resume"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'rasters.resume')?.input).toEqual({
      id: 'off_1',
    });
    await w.findAll('[data-test="take-cancel"]').at(-1)!.trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'rasters.cancel')?.input).toEqual({
      key: 'take-2',
    });
    w.unmount();
  });
});
