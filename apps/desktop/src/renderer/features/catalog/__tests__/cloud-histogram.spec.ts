/**
 * The cloud-cover histogram above the slider, on the in-memory contract: bars of the search's
 * matches without its cloud filter, a text alternative with every bin, the slider's selection
 * highlighted, records without cloud cover counted apart, and a refresh with each search.
 */
import { CLOUD_COVER_BINS, cloudCoverBin } from '@eo/domain';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import { markResultsShown } from '../../../ui/first-screen';
import FilterPanel from '../FilterPanel.vue';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 50 });
  provideBridge(bridge);
  // The bars wait for the first screen (cloud-histogram-first-screen.spec.ts): it is up.
  markResultsShown();
});

/** The bins counted from the bridge's records (every one: the cloud filter is left out). */
function expectedBins(): number[] {
  const bins = new Array<number>(CLOUD_COVER_BINS).fill(0);
  for (const r of bridge.records) {
    const cloud = r.details.properties['eo:cloud_cover'];
    if (typeof cloud === 'number') bins[cloudCoverBin(cloud)]!++;
  }
  return bins;
}

describe('CloudHistogram', () => {
  it('draws the bars of the matches without the cloud filter, the selection highlighted', async () => {
    const wrapper = mount(FilterPanel);
    expect(wrapper.find('[data-test="cloud-histogram"]').exists()).toBe(false);

    await wrapper.find('input[name="cloudMax"]').setValue('40');
    await wrapper.find('form').trigger('submit');
    await flushPromises();

    const sent = bridge.calls.filter((c) => c.method === 'catalog.cloudHistogram');
    expect(sent).toHaveLength(1);
    expect((sent[0]!.input as { query: object }).query).toEqual({
      'eo:cloud_cover': { lte: 40 },
    });
    const bars = wrapper.findAll('[data-test="cloud-bar"]');
    const bins = expectedBins();
    expect(bars.map((b) => Number(b.attributes('data-count')))).toEqual(bins);
    expect(bins.reduce((a, b) => a + b, 0)).toBe(50);
    // 0–10 % up to 40–50 %: the bins the slider's "up to 40 %" keeps.
    expect(bars.map((b) => b.classes().includes('selected'))).toEqual([
      ...new Array(5).fill(true),
      ...new Array(5).fill(false),
    ]);

    const label = wrapper.find('svg[role="img"]').attributes('aria-label')!;
    expect(label).toBe(
      `Cloud cover of 50 records: ${bins
        .map((n, i) => `${i * 10}–${i * 10 + 10} %: ${n}`)
        .join(', ')}; selected: up to 40 %.`,
    );
    expect(wrapper.find('svg title').text()).toBe(label);

    // The slider moves the highlight at once (no new read).
    await wrapper.find('[data-test="cloud-slider"]').setValue('25');
    expect(
      wrapper.findAll('[data-test="cloud-bar"]').filter((b) => b.classes().includes('selected')),
    ).toHaveLength(3);
    expect(bridge.calls.filter((c) => c.method === 'catalog.cloudHistogram')).toHaveLength(1);
  });

  it('counts records without cloud cover apart, and reads again when the search runs again', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const wrapper = mount(FilterPanel);
    await flushPromises();
    expect(wrapper.find('[data-test="without-cloud"]').exists()).toBe(false);

    delete (bridge.records[0]!.details.properties as Record<string, unknown>)['eo:cloud_cover'];
    delete (bridge.records[1]!.details.properties as Record<string, unknown>)['eo:cloud_cover'];
    await catalog.refresh(); // the same query again (as after a sync)
    await flushPromises();

    expect(wrapper.find('[data-test="without-cloud"]').text()).toBe('2 without cloud cover');
    expect(wrapper.find('svg[role="img"]').attributes('aria-label')).toMatch(
      /^Cloud cover of 50 records: .*; 2 without cloud cover\.$/,
    );
    expect(
      wrapper.findAll('[data-test="cloud-bar"]').map((b) => Number(b.attributes('data-count'))),
    ).toEqual(expectedBins());
    // No cloud filter: every bar is selected.
    expect(wrapper.findAll('[data-test="cloud-bar"].selected')).toHaveLength(CLOUD_COVER_BINS);
  });
});
