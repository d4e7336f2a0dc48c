import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import TakeOffline from '../TakeOffline.vue';

let bridge: MemoryBridge;
beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge();
  provideBridge(bridge);
});

const props = { recordId: 'rec-1', gsd: 10, bands: 4, view: [6.6, 46.5, 6.7, 46.6] as const };

describe('Take offline in a scene’s detail', () => {
  it('says the size and time before it starts, then asks the backend for the site', async () => {
    const w = mount(TakeOffline, { props: { ...props, view: [...props.view] } });
    // 1 km around: pi km² at 10 m, four bands.
    expect(w.get('[data-test="take-estimate"]').text()).toMatch(
      /About .*B: .* at 2 Mbit\/s, .* at 20 Mbit\/s\./,
    );
    const before = w.get('[data-test="take-estimate"]').text();
    await w.get('[data-test="take-resolution"]').setValue('40');
    expect(w.get('[data-test="take-estimate"]').text()).not.toBe(before);

    bridge.offlineTakes = [
      {
        key: 'take-1',
        sceneId: 'rec-1',
        areaLabel: '1000 m around',
        phase: 'tiles',
        done: 2,
        total: 4,
        bytes: 100_000,
        plannedBytes: 200_000,
        error: null,
        startedAt: 1,
      },
    ];
    await w.get('button.btn').trigger('click');
    await flushPromises();
    const take = bridge.calls.find((c) => c.method === 'rasters.take');
    expect(take?.input).toMatchObject({
      scene: { kind: 'catalog', id: 'rec-1' },
      resolution: { metres: 40 },
      area: { kind: 'around', radiusM: 1000 },
    });
    const area = (take!.input as { area: { lon: number; lat: number } }).area;
    expect(area.lon).toBeCloseTo(6.65, 6);
    expect(area.lat).toBeCloseTo(46.55, 6);
    expect(w.get('[data-test="take-progress"]').text()).toMatch(/Tiles 2 of 4/);
    expect(w.find('button:nth-of-type(2)').text()).toBe('Cancel');
    w.unmount();
  });
});
