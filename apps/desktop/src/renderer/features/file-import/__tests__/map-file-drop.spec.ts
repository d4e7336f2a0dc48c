/**
 * A field file dropped on the catalog map, in the whole app (happy-dom): the shared preview
 * opens over the map; the picked features become a new order's items (the composer opens with
 * them) or AOIs (the AOI form opens with them, queued there with its shared fields).
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountApp } from '../../../__tests__/mount-app';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { KMZ } from './preview-fixtures';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 3 });
  provideBridge(bridge);
  bridge.filePreviews.set('felder.kmz', KMZ);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function dropOnMap(name = 'felder.kmz'): Promise<VueWrapper> {
  wrapper = mountApp();
  await flushPromises();
  const map = wrapper.find('.catalog__map');
  const files = [new File(['PK fake zip'], name)];
  await map.trigger('dragover', { dataTransfer: { types: ['Files'], files } });
  expect(wrapper.find('[data-test="map-drop-hint"]').exists()).toBe(true);
  await map.trigger('drop', { dataTransfer: { types: ['Files'], files } });
  await flushPromises();
  return wrapper;
}

const value = (w: VueWrapper, sel: string) => (w.find(sel).element as HTMLInputElement).value;

describe('a file dropped on the catalog map', () => {
  it('opens the preview over the map', async () => {
    const w = await dropOnMap();
    expect(w.find('[data-test="map-drop-hint"]').exists()).toBe(false);
    const panel = w.find('[data-test="map-drop-panel"]');
    expect(panel.text()).toContain('felder.kmz: 3 features (kmz), 2 usable as areas');
    expect(panel.find('[data-test="map-import-order"]').text()).toBe('New order with 2 items');
    expect(panel.find('[data-test="map-import-aois"]').text()).toBe('2 AOIs…');
  });

  it('a file it cannot read says why, and closes', async () => {
    const w = await dropOnMap('notes.docx');
    expect(w.find('[data-test="file-import-error"]').text()).toContain(
      'notes.docx: not a field file this app reads',
    );
    await w.find('[data-test="map-drop-close"]').trigger('click');
    expect(w.find('[data-test="map-drop-panel"]').exists()).toBe(false);
  });

  it('"New order" opens the composer with one item per picked feature', async () => {
    const w = await dropOnMap();
    await w.find('[data-test="map-import-order"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-screen="orders"]').attributes('aria-current')).toBe('page');
    expect(w.findAll('[data-test^="composer-item-"]')).toHaveLength(2);
    expect(value(w, '[data-test="composer-item-0"] [data-test="field-name"]')).toBe(
      'Wiese am Bach',
    );
    expect(value(w, '[data-test="composer-item-1"] [data-test="field-name"]')).toBe('Acker Nord');
    expect(w.find('[data-test="composer-item-1"] [data-test="geometry-state"]').text()).toBe(
      '1 feature · felder.kmz · Acker Nord',
    );
    // Taken: the map's preview is closed.
    await w.find('[data-screen="catalog"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="map-drop-panel"]').exists()).toBe(false);
  });

  it('merged, the new order has one item of both areas', async () => {
    const w = await dropOnMap();
    await w.find('[data-test="import-merge"]').setValue(true);
    expect(w.find('[data-test="map-import-order"]').text()).toBe('New order with 1 item');
    await w.find('[data-test="map-import-order"]').trigger('click');
    await flushPromises();
    expect(w.findAll('[data-test^="composer-item-"]')).toHaveLength(1);
    expect(w.find('[data-test="geometry-state"]').text()).toBe(
      '1 feature · felder.kmz · 2 features merged',
    );
    expect(value(w, '[data-test="field-name"]')).toBe('felder');
  });

  it('"AOIs…" opens the AOI form with the picked features, queued there', async () => {
    const w = await dropOnMap();
    await w.find('[data-test="import-pick-1"]').trigger('change'); // only Acker Nord
    await w.find('[data-test="map-import-aois"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-screen="aois"]').attributes('aria-current')).toBe('page');
    const form = w.find('[data-test="aoi-form"]');
    expect(form.exists()).toBe(true);
    // One picked: it is the form's area, named after it.
    expect(form.find('[data-test="aoi-geometry-state"]').text()).toBe(
      'Polygon (1 part) · felder.kmz · Acker Nord',
    );
    expect(value(w, '[data-test="aoi-name"]')).toBe('Acker Nord');
    expect(form.find('[data-test="file-import-preview"]').text()).toContain('felder.kmz');
    await form.find('[data-test="aoi-satellite"]').setValue('aurora-1');
    await form.find('[data-test="aoi-provider"]').setValue('esa');
    await form.find('[data-test="aoi-project"]').setValue('proj-7');
    await form.find('[data-test="aoi-item-ids"]').setValue('AUR_1');
    await form.find('[data-test="import-queue-each"]').trigger('click');
    await flushPromises();
    expect(form.find('[data-test="file-import-done"]').text()).toBe(
      'Queued 1 AOI (Acker Nord); they will be submitted from the Outbox.',
    );
  });
});
