/** "Go to a place" over the bundled gazetteer, in happy-dom with a real Leaflet map. */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import L from 'leaflet';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadGazetteer } from '../gazetteer';
import PlaceSearch from '../PlaceSearch.vue';
import { giveElementsSize } from './layout';

let map: L.Map;
let wrapper: VueWrapper | null = null;
let undoSize: () => void;

// Once for the file (every tier, 112,000 places): on a busy machine that takes longer than a
// hook's default 10 s; the component's first search awaits it.
beforeAll(() => loadGazetteer(), 60_000);
beforeEach(() => {
  undoSize = giveElementsSize(800, 600);
  const el = document.createElement('div');
  document.body.appendChild(el);
  map = L.map(el, { center: [0, 0], zoom: 2 });
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  map.remove();
  undoSize();
  document.body.innerHTML = '';
});

async function typeInto(text: string): Promise<void> {
  await wrapper!.find('[data-test="place-input"]').setValue(text);
  await flushPromises();
}

describe('PlaceSearch', () => {
  it('lists matching places as you type (diacritics ignored) and goes to the picked one', async () => {
    wrapper = mount(PlaceSearch, { props: { map }, attachTo: document.body });
    await typeInto('sao paulo');
    const first = wrapper.find('[data-test="place-result-0"]');
    expect(first.text()).toMatch(/^São Paulo, BR · [\d,]+ people$/);
    await first.trigger('click');
    expect(map.getCenter().lat).toBeCloseTo(-23.55, 1);
    expect(map.getCenter().lng).toBeCloseTo(-46.64, 1);
    expect(map.getZoom()).toBe(10);
    expect(wrapper.find('[data-test="place-results"]').exists()).toBe(false);
  });

  it('goes to the first match on Enter, zoomed in further for a town', async () => {
    wrapper = mount(PlaceSearch, { props: { map }, attachTo: document.body });
    await typeInto('coburg, us');
    await wrapper.find('[data-test="place-form"]').trigger('submit');
    expect(map.getCenter().lat).toBeCloseTo(44.14, 1);
    expect(map.getZoom()).toBe(12);
  });

  it('says when nothing matches', async () => {
    wrapper = mount(PlaceSearch, { props: { map }, attachTo: document.body });
    await typeInto('qqqxz');
    expect(wrapper.find('[data-test="place-status"]').text()).toBe('No place matches “qqqxz”.');
    await wrapper.find('[data-test="place-form"]').trigger('submit');
    expect(map.getZoom()).toBe(2);
  });
});
