import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../catalog-store';
import FilterPanel from '../FilterPanel.vue';
import SavedSearches from '../SavedSearches.vue';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 50 });
  provideBridge(bridge);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('FilterPanel', () => {
  it('shows a message next to each invalid field and does not search', async () => {
    const wrapper = mount(FilterPanel);
    await wrapper.find('input[name="cloudMax"]').setValue('150');
    await wrapper.find('input[name="dateFrom"]').setValue('2024-06-10');
    await wrapper.find('input[name="dateTo"]').setValue('2024-06-01');
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    expect(wrapper.find('#err-cloudMax').text()).toBe('Cloud cover is a percentage from 0 to 100.');
    expect(wrapper.find('input[name="cloudMax"]').attributes('aria-invalid')).toBe('true');
    expect(wrapper.find('input[name="cloudMax"]').attributes('aria-describedby')).toBe(
      'err-cloudMax',
    );
    expect(wrapper.find('#err-dateTo').text()).toBe('The end date is before the start date.');
    expect(bridge.calls.some((c) => c.method === 'catalog.search')).toBe(false);

    await wrapper.find('input[name="cloudMax"]').setValue('40');
    await wrapper.find('input[name="dateTo"]').setValue('');
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    expect(wrapper.find('#err-cloudMax').exists()).toBe(false);
    const sent = bridge.calls.find((c) => c.method === 'catalog.search')?.input as {
      datetime: string;
      query: Record<string, unknown>;
    };
    expect(sent.query['eo:cloud_cover']).toEqual({ lte: 40 });
    expect(sent.datetime).toMatch(/^\d{4}-\d\d-\d\dT.*Z\/\.\.$/);
  });

  it('offers collections seen in results and filters by the ticked ones', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const wrapper = mount(FilterPanel);
    const boxes = wrapper.findAll('fieldset input[type="checkbox"]:not([data-test^="platform-"])');
    expect(boxes.length).toBe(catalog.knownCollections.length);
    await boxes[0]!.setValue(true);
    expect(catalog.filters.collections).toEqual([catalog.knownCollections[0]]);
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    const want = bridge.records.filter(
      (r) => r.details.collection === catalog.knownCollections[0],
    ).length;
    expect(catalog.total).toBe(want);
  });

  it('offers the platforms seen in results and filters by the ticked ones', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const wrapper = mount(FilterPanel);
    const platform = catalog.knownPlatforms[0]!;
    expect(catalog.knownPlatforms.length).toBeGreaterThan(1);
    await wrapper.find(`[data-test="platform-${platform}"]`).setValue(true);
    await wrapper.find('input[name="gsdMax"]').setValue('100');
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    const want = bridge.records.filter((r) => r.details.properties.platform === platform).length;
    expect(want).toBeGreaterThan(0);
    expect(catalog.total).toBe(want);
  });

  it('fills the dates from a preset and says the range searched, in UTC', async () => {
    // A fixed clock (Date only): the preset and the check read the same day, even at midnight.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T23:59:59Z'));
    const catalog = useCatalogStore();
    const wrapper = mount(FilterPanel);
    expect(wrapper.find('legend').text()).toBe('Acquired (UTC days)');
    expect(wrapper.find('[data-test="date-rule"]').text()).toBe('Any date. Dates are UTC days.');
    await wrapper.find('[data-test="date-preset-last7"]').trigger('click');
    await flushPromises();
    const today = '2026-11-25';
    expect(catalog.filters.dateFrom).toBe('2026-11-19');
    expect(catalog.filters.dateTo).toBe(today);
    expect(wrapper.find('[data-test="date-rule"]').text()).toBe(
      `Searches ${catalog.filters.dateFrom} 00:00 to ${today} 23:59 UTC.`,
    );
    const sent = bridge.calls.filter((c) => c.method === 'catalog.search').at(-1)?.input as {
      datetime: string;
    };
    expect(sent.datetime).toBe(`${catalog.filters.dateFrom}T00:00:00.000Z/${today}T23:59:59.999Z`);
  });

  it('names the season preset for the hemisphere of the map view', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
    const catalog = useCatalogStore();
    const wrapper = mount(FilterPanel);
    const season = () => wrapper.find('[data-test="date-preset-season"]').text();
    expect(season()).toBe('This season (Sep–Nov)');
    catalog.setViewBox([-66, -40, -56, -30]);
    await flushPromises();
    expect(season()).toBe('This spring (Sep–Nov)');
    catalog.setViewBox([4, 43, 5, 44]);
    await flushPromises();
    expect(season()).toBe('This autumn (Sep–Nov)');
  });

  it('searches when the cloud slider rests, once per drag', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const wrapper = mount(FilterPanel);
    const searches = () => bridge.calls.filter((c) => c.method === 'catalog.search');
    const slider = wrapper.find('[data-test="cloud-slider"]');
    for (const v of ['60', '40', '20']) {
      await slider.setValue(v);
      vi.advanceTimersByTime(100);
    }
    expect(searches()).toHaveLength(0);
    vi.advanceTimersByTime(350);
    await flushPromises();
    expect(searches()).toHaveLength(1);
    expect((searches()[0]!.input as { query: Record<string, unknown> }).query).toMatchObject({
      'eo:cloud_cover': { lte: 20 },
    });
    wrapper.unmount();
  });

  it('asks the map to draw when the polygon area is chosen', async () => {
    const wrapper = mount(FilterPanel);
    const radios = wrapper.findAll('input[name="area"]');
    await radios[2]!.setValue(true);
    expect(wrapper.emitted('draw')).toHaveLength(1);
    await radios[1]!.setValue(true);
    expect(useCatalogStore().filters.area.kind).toBe('view');
  });

  it('applies "the map view" as soon as it is chosen, with the current map bounds', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    catalog.setViewBox([10, 40, 20, 50]);
    const wrapper = mount(FilterPanel);
    const before = bridge.calls.filter((c) => c.method === 'catalog.search').length;
    await wrapper.findAll('input[name="area"]')[1]!.setValue(true);
    await flushPromises();
    const searches = bridge.calls.filter((c) => c.method === 'catalog.search');
    expect(searches).toHaveLength(before + 1);
    expect((searches.at(-1)!.input as { bbox?: number[] }).bbox).toEqual([10, 40, 20, 50]);
    expect(catalog.query?.bbox).toEqual([10, 40, 20, 50]);
    // And back to everywhere, at once too.
    await wrapper.findAll('input[name="area"]')[0]!.setValue(true);
    await flushPromises();
    expect(catalog.query?.bbox).toBeUndefined();
    expect(catalog.total).toBe(bridge.records.length);
  });
});

describe('SavedSearches', () => {
  it('saves, lists, runs and deletes a search, with a message for a missing name', async () => {
    const catalog = useCatalogStore();
    const wrapper = mount(SavedSearches);
    await flushPromises();
    expect(wrapper.text()).toContain('None yet.');
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    expect(wrapper.find('[role="alert"]').text()).toBe('Give the search a name.');

    catalog.filters.cloudMax = '10';
    await wrapper.find('#saved-name').setValue('Clear skies');
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
    expect(wrapper.find('li').text()).toContain('Clear skies');

    catalog.resetFilters();
    await wrapper.find('li button.link').trigger('click');
    await flushPromises();
    expect(catalog.filters.cloudMax).toBe('10');
    expect(catalog.status).toBe('ready');

    await wrapper.find('li button[aria-label="Delete saved search Clear skies"]').trigger('click');
    await flushPromises();
    expect(wrapper.text()).toContain('None yet.');
  });
});
