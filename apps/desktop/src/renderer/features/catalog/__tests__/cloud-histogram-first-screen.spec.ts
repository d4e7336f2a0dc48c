/**
 * The cloud-cover count waits for the first screen: with 100,000 records it holds the backend
 * ~0.3 s, which the first screen's footprints would wait behind. A file of its own: the first
 * screen is shown once per page (ui/first-screen.ts), and this page must start without it.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { markResultsShown } from '../../../ui/first-screen';
import FilterPanel from '../FilterPanel.vue';

describe('CloudHistogram before the first screen is up', () => {
  it('asks for the bars only once the first screen showed its results', async () => {
    setActivePinia(createPinia());
    const bridge = createMemoryBridge({ records: 20 });
    provideBridge(bridge);
    const wrapper = mount(FilterPanel);
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    const histograms = () => bridge.calls.filter((c) => c.method === 'catalog.cloudHistogram');
    // The search went out; its bars did not.
    expect(bridge.calls.some((c) => c.method === 'catalog.search')).toBe(true);
    expect(histograms()).toHaveLength(0);
    expect(wrapper.find('[data-test="cloud-histogram"]').exists()).toBe(false);

    markResultsShown();
    await flushPromises();
    expect(histograms()).toHaveLength(1);
    expect(wrapper.find('[data-test="cloud-histogram"]').exists()).toBe(true);
  });
});
