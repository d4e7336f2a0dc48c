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
import L from 'leaflet';
import MapView from '../../../features/catalog/MapView.vue';
import { giveElementsSize } from '../../../map/__tests__/layout';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 3 });
  provideBridge(bridge);
  bridge.filePreviews.set('felder.kmz', KMZ);
});
let undoSize: (() => void) | null = null;
afterEach(() => {
  undoSize?.();
  undoSize = null;
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
    expect(panel.find('[data-test="file-import-warning"]').exists()).toBe(false);
  });

  it("draws the file's areas on the map (picked solid, the others dashed) and zooms to them", async () => {
    // Fitting waits for a laid-out map (world-view.ts): give the maps a size.
    undoSize = giveElementsSize(1000, 700);
    const w = await dropOnMap();
    const map = w.findComponent(MapView).vm.internals().map!;
    const drawn = () => [...document.querySelectorAll('path.map-drop__feature')];
    expect(drawn()).toHaveLength(2);
    const areas = L.latLngBounds([46.2, 14.1], [46.22, 14.32]);
    expect(areas.contains(map.getCenter())).toBe(true);
    expect(map.getZoom()).toBeGreaterThanOrEqual(9);
    // Unpicking one dashes it, without moving the map.
    const center = map.getCenter();
    await w.find('[data-test="import-pick-3"]').trigger('change');
    expect(drawn().map((p) => p.getAttribute('stroke-dasharray'))).toEqual([null, '4 3']);
    expect(map.getCenter()).toEqual(center);
    // Done with the file: its areas go.
    await w.find('[data-test="map-import-order"]').trigger('click');
    await flushPromises();
    expect(drawn()).toHaveLength(0);
  });

  it('says what it assumed reading the file (a Shapefile without its .prj read as lon/lat)', async () => {
    const warning = 'parcels.shp: no .prj: read as WGS 84 lon/lat';
    bridge.filePreviews.set('parcels.zip', {
      ...KMZ,
      file: 'parcels.zip',
      format: 'shapefile',
      warnings: [warning],
    });
    const w = await dropOnMap('parcels.zip');
    expect(w.findAll('[data-test="file-import-warning"]').map((p) => p.text())).toEqual([warning]);
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
