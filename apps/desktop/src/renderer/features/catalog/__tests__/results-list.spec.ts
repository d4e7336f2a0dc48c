import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../catalog-store';
import { utmWkt2 } from '@eo/domain';
import DetailPanel from '../DetailPanel.vue';
import ResultsList from '../ResultsList.vue';
import { formatLocalDateTime } from '../../../format/units';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 300 });
  provideBridge(bridge);
});

async function mountList() {
  const catalog = useCatalogStore();
  await catalog.search();
  const wrapper = mount(ResultsList, { attachTo: document.body });
  await flushPromises();
  return { catalog, wrapper };
}

describe('ResultsList', () => {
  it('marks the old results stale while the filters are invalid, and unmarks on a valid search', async () => {
    const { catalog, wrapper } = await mountList();
    expect(wrapper.find('[data-stale]').exists()).toBe(false);
    expect(wrapper.find('[data-test="stale-note"]').exists()).toBe(false);
    catalog.filters.cloudMax = '150';
    await catalog.search();
    await flushPromises();
    expect(wrapper.find('section.results').attributes('data-stale')).toBe('true');
    expect(wrapper.find('[data-test="stale-note"]').text()).toMatch(
      /results are for the previous search/i,
    );
    catalog.filters.cloudMax = '';
    await catalog.search();
    await flushPromises();
    expect(wrapper.find('[data-stale]').exists()).toBe(false);
    expect(wrapper.find('[data-test="stale-note"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('renders only the rows in view, for a long list', async () => {
    const { wrapper } = await mountList();
    const rows = wrapper.findAll('[role="option"]');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]!.attributes('aria-setsize')).toBe('300');
    expect(wrapper.find('[data-test="total"]').text()).toBe('300');
  });

  it('shows local times and readable units in the rows', async () => {
    const { wrapper, catalog } = await mountList();
    const first = wrapper.find('[role="option"]');
    const row = catalog.rowAt(0)!;
    expect(first.text()).toContain(`${Math.round(row.cloudCover!)} %`);
    expect(first.text()).toContain('°');
    expect(first.text()).toContain(row.id);
    // A long id is cut in the middle (its end, what tells ids apart, stays), whole in its title.
    const id = first.find('[data-test="long-id"]');
    expect(id.attributes('title')).toBe(row.id);
    expect(id.find('.long-id__tail').text()).toBe(row.id.slice(-8));
    expect(id.find('.long-id__head').text() + id.find('.long-id__tail').text()).toBe(row.id);
  });

  it('says the figures in words and names the basket box, for a screen reader', async () => {
    const { wrapper, catalog } = await mountList();
    const first = wrapper.find('[role="option"]');
    const row = catalog.rowAt(0)!;
    const figures = first.find('[data-test="row-figures"]');
    // The glyphs are hidden from assistive technology; the words are what it reads.
    const heard = figures
      .findAll('span')
      .filter((s) => s.attributes('aria-hidden') !== 'true')
      .map((s) => s.text());
    expect(heard).toEqual([
      `Cloud cover ${Math.round(row.cloudCover!)} %, off-nadir ${row.offNadir!.toFixed(1)}°`,
    ]);
    expect(heard.join(' ')).not.toMatch(/[☁∠]/);
    const box = first.find('input[type="checkbox"]');
    expect(box.attributes('aria-label')).toBe(
      `Select scene ${formatLocalDateTime(row.datetime)} ${row.platform ?? row.collection}`,
    );
  });

  it('is driven by the keyboard: arrows move, Space fills the basket, Enter opens', async () => {
    const { wrapper, catalog } = await mountList();
    const list = wrapper.find('[role="listbox"]');
    await list.trigger('keydown', { key: 'ArrowDown' });
    await list.trigger('keydown', { key: 'ArrowDown' });
    const second = catalog.footprints.ids[1]!;
    expect(list.attributes('aria-activedescendant')).toBe('result-row-1');
    // The focused row is highlighted on the map too.
    expect(catalog.hoveredId).toBe(second);
    expect(catalog.hoverSource).toBe('list');
    await list.trigger('keydown', { key: 'Enter' });
    await flushPromises();
    expect(catalog.activeId).toBe(second);
    // Opened to look at it: not in the basket.
    expect(catalog.selected).toEqual([]);
    expect(wrapper.find('#result-row-1').attributes('aria-selected')).toBe('false');
    await list.trigger('keydown', { key: ' ' });
    await flushPromises();
    expect(catalog.selected).toEqual([second]);
    expect(wrapper.find('#result-row-1').attributes('aria-selected')).toBe('true');
    await list.trigger('keydown', { key: 'End' });
    await flushPromises();
    expect(catalog.hoveredId).toBe(catalog.footprints.ids[299]);
  });

  it('highlights the row of the footprint hovered on the map; a click opens, the box fills the basket', async () => {
    const { wrapper, catalog } = await mountList();
    const id = catalog.footprints.ids[2]!;
    catalog.hover(id, 'map');
    await flushPromises();
    expect(wrapper.find(`[data-id="${id}"]`).classes()).toContain('row--hovered');
    catalog.hover(null, 'map');
    await flushPromises();
    expect(wrapper.find(`[data-id="${id}"]`).classes()).not.toContain('row--hovered');

    await wrapper.find(`[data-id="${id}"]`).trigger('click');
    await flushPromises();
    expect(catalog.activeId).toBe(id);
    expect(catalog.selected).toEqual([]);
    await wrapper.find(`[data-id="${id}"] input[type="checkbox"]`).trigger('click');
    await flushPromises();
    expect(catalog.selected).toEqual([id]);
    // The box does not open the row.
    const other = catalog.footprints.ids[4]!;
    await wrapper.find(`[data-id="${other}"] input[type="checkbox"]`).trigger('click');
    await flushPromises();
    expect(catalog.activeId).toBe(id);
    expect(catalog.selected).toEqual([id, other]);
    await wrapper.find(`[data-id="${other}"]`).trigger('click', { ctrlKey: true });
    await flushPromises();
    expect(catalog.selected).toEqual([id]);
    expect(wrapper.find('[data-test="selected-count"]').text()).toBe('1 in basket');
  });

  it('scrolls to and highlights the row of a footprint hovered on the map, keeping the focus', async () => {
    const { wrapper, catalog } = await mountList();
    const list = wrapper.find('[role="listbox"]');
    const viewport = list.element as HTMLElement;
    await list.trigger('keydown', { key: 'ArrowDown' });
    const id = catalog.footprints.ids[260]!;
    catalog.hover(id, 'map');
    await flushPromises();
    expect(viewport.scrollTop).toBeGreaterThan(200 * 48);
    await flushPromises();
    expect(wrapper.find(`[data-id="${id}"]`).classes()).toContain('row--hovered');
    // The keyboard's row stays focused; a hover from the list itself never scrolls.
    expect(wrapper.find('.row--focus').exists()).toBe(false);
    viewport.scrollTop = 0;
    await list.trigger('scroll');
    catalog.hover(catalog.footprints.ids[270]!, 'list');
    await flushPromises();
    expect(viewport.scrollTop).toBe(0);
    expect(list.attributes('aria-activedescendant')).toBe('result-row-0');
  });

  it('scrolls to the row of a scene picked on the map', async () => {
    const { wrapper, catalog } = await mountList();
    const viewport = wrapper.find('[role="listbox"]').element as HTMLElement;
    expect(viewport.scrollTop).toBe(0);
    catalog.pick(catalog.footprints.ids[250]!, { source: 'map' });
    await flushPromises();
    expect(viewport.scrollTop).toBeGreaterThan(200 * 48);
    await flushPromises();
    expect(wrapper.find(`[data-id="${catalog.footprints.ids[250]}"]`).exists()).toBe(true);
  });

  it('has an empty state that says what to try', async () => {
    const catalog = useCatalogStore();
    catalog.filters.collections = ['nothing-here'];
    await catalog.search();
    const wrapper = mount(ResultsList);
    expect(wrapper.find('[data-test="empty"]').text()).toContain('No scenes match these filters.');
    expect(wrapper.findAll('[role="option"]')).toHaveLength(0);
  });

  it('has an error state with the reason, the hint and a retry', async () => {
    const catalog = useCatalogStore();
    bridge.failWith('catalog.search', new ContractError('internal', 'mirror database is corrupt'));
    await catalog.search();
    const wrapper = mount(ResultsList);
    const alert = wrapper.find('[role="alert"]');
    expect(alert.text()).toContain('mirror database is corrupt');
    expect(alert.text()).toContain('Try again');
    bridge.failWith('catalog.search', null);
    await alert.find('button').trigger('click');
    await flushPromises();
    expect(catalog.status).toBe('ready');
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
  });
});

describe('DetailPanel', () => {
  it('shows the open record with units, local time, assets and links', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const record = bridge.records[0]!;
    await catalog.open(record.id);
    const wrapper = mount(DetailPanel);
    const text = wrapper.text();
    expect(text).toContain('Cloud cover');
    expect(text).toMatch(/\d %/);
    expect(text).toContain('Off-nadir angle');
    expect(text).toMatch(/\d°/);
    expect(text).toContain('Ground sample distance');
    expect(text).toMatch(/\d m/);
    expect(text).toContain(`Assets (${Object.keys(record.details.assets).length})`);
    // Acquisition time in local time with a zone name, not the raw ISO string.
    expect(text).not.toContain(record.details.properties.datetime!);
    for (const a of wrapper.findAll('a')) {
      expect(a.attributes('rel')).toBe('noopener noreferrer');
      expect(a.attributes('href')).toMatch(/^https?:/);
    }
    await wrapper.find('[data-test="detail-basket"]').trigger('click');
    await flushPromises();
    expect(catalog.selected).toContain(record.id);
    await wrapper.find('button[aria-label="Close details"]').trigger('click');
    expect(catalog.activeId).toBeNull();
  });

  it('copies the whole id of the open record', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const record = bridge.records[0]!;
    await catalog.open(record.id);
    const written: string[] = [];
    const clipboard = { writeText: async (t: string) => void written.push(t) };
    Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
    const wrapper = mount(DetailPanel);
    expect(wrapper.find('[data-test="detail-id"]').text()).toBe(record.id);
    const copy = wrapper.find('[data-test="detail-copy-id"]');
    expect(copy.attributes('title')).toBe(`Copy ${record.id}`);
    await copy.trigger('click');
    await flushPromises();
    expect(written).toEqual([record.id]);
    expect(copy.text()).toBe('Copied');
  });

  it('names the CRS of proj:wkt2 and keeps its WKT behind a disclosure', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const record = bridge.records[0]!;
    const wkt = utmWkt2(32, false);
    (record.details.properties as Record<string, unknown>)['proj:wkt2'] = wkt;
    await catalog.open(record.id);
    const wrapper = mount(DetailPanel);
    const row = wrapper.find('[data-test="prop-proj:wkt2"]');
    expect(row.text()).toMatch(/^WGS 84 \/ UTM zone 32N \(EPSG:32632\)\s+WKT/);
    const disclosure = row.find('details');
    expect(disclosure.attributes('open')).toBeUndefined();
    expect(disclosure.find('pre').text()).toBe(wkt);
  });

  it('says so when the record is gone from the mirror', async () => {
    const catalog = useCatalogStore();
    await catalog.open('missing-id');
    const wrapper = mount(DetailPanel);
    expect(wrapper.text()).toContain('This record is not in the mirror any more.');
  });
});
