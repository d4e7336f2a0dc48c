/**
 * The map's pictures wait for the first screen: the quicklook layer fetches a picture per
 * record in view as it draws (150 on the demo data), and serving and decoding them took the
 * CPU the first screen's frames waited for; the offline imagery's part (its chunks) likewise.
 * A file of its own: the first screen is shown once per page (ui/first-screen.ts), and this
 * page must start without it.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it, vi } from 'vitest';
import { QuicklookLayer } from '../../../map/quicklook-layer';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import { markResultsShown } from '../../../ui/first-screen';
import { browserQuicklookUrl, provideQuicklookUrl } from '../../../ui/quicklook-source';
import MapView from '../MapView.vue';

describe('the quicklook layer before the first screen is up', () => {
  it('joins the map, and fetches pictures, only once the first screen showed its results; so does the offline imagery', async () => {
    const given = vi.spyOn(QuicklookLayer.prototype, 'setFootprintSet');
    setActivePinia(createPinia());
    provideBridge(createMemoryBridge({ records: 20 }));
    provideQuicklookUrl(browserQuicklookUrl('t'));
    await useCatalogStore().search();
    const wrapper = mount(MapView, { attachTo: document.body });
    await flushPromises();
    const { map, quicklooks } = wrapper.vm.internals();
    expect(quicklooks).not.toBeNull();
    expect(map!.hasLayer(quicklooks!)).toBe(false);
    const offlineImagery = () =>
      wrapper.findComponent({ name: 'OfflineRasterMap' }).exists() ||
      wrapper.text().includes('Loading the offline imagery');
    expect(offlineImagery()).toBe(false);
    // Nor does it work out the footprints' boxes before then (the first screen's paint waits).
    expect(given).not.toHaveBeenCalled();

    markResultsShown();
    await flushPromises();
    expect(map!.hasLayer(quicklooks!)).toBe(true);
    expect(given).toHaveBeenCalledTimes(1);
    expect(given.mock.calls[0]![0].ids).toHaveLength(20);
    await expect
      .poll(offlineImagery, { timeout: 5_000, message: 'the offline imagery part never came' })
      .toBe(true);
    wrapper.unmount();
    provideQuicklookUrl(null);
    given.mockRestore();
  });
});
