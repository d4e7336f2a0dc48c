/**
 * The order composer's "Import a file…" in happy-dom: the same preview as the AOI form
 * (FilePreviewPanel; the backend's reading of real files is src/backend/__tests__/), opened
 * from an item. A multi-feature file becomes several order items in one step, one per picked
 * feature named after it (or after a chosen attribute), or one merged area.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { KMZ } from '../../../capabilities/file-import/__tests__/preview-fixtures';
import OrdersScreen from '../OrdersScreen.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 2 });
  provideBridge(bridge);
  bridge.filePreviews.set('felder.kmz', KMZ);
});

afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function composerWithFile(name = 'felder.kmz') {
  wrapper = mount(OrdersScreen, { attachTo: document.body });
  await flushPromises();
  await wrapper.find('[data-test="new-order"]').trigger('click');
  await flushPromises();
  const item = wrapper.find('[data-test="composer-item-0"]');
  await item.find('[data-test="field-project"]').setValue('proj-7');
  await item.find('[data-test="field-start"]').setValue('2030-06-01T09:00');
  await item.find('[data-test="field-end"]').setValue('2030-06-20T09:00');
  const input = item.find('[data-test="import-file"]');
  Object.defineProperty(input.element, 'files', {
    value: [new File(['PK fake zip'], name)],
    configurable: true,
  });
  await input.trigger('change');
  await flushPromises();
  return wrapper;
}

const value = (w: VueWrapper, sel: string) =>
  (w.find(sel).element as HTMLInputElement | HTMLTextAreaElement).value;

describe('Order composer: Import a file…', () => {
  it('shows the shared preview under the item it was opened from', async () => {
    const w = await composerWithFile();
    expect(bridge.calls.find((c) => c.method === 'files.preview')?.input).toEqual({
      name: 'felder.kmz',
      base64: btoa('PK fake zip'),
    });
    const item = w.find('[data-test="composer-item-0"]');
    expect(item.find('[data-test="file-import-preview"]').text()).toContain(
      'felder.kmz: 3 features (kmz), 2 usable as areas',
    );
    expect(item.find('[data-test="import-feature-2"]').text()).toContain('a Point has no area');
    expect(item.find('[data-test="import-items"]').text()).toBe('2 order items, one per feature');
  });

  it('makes one order item per picked feature, named after it, and queues them as one order', async () => {
    const w = await composerWithFile();
    await w.find('[data-test="import-items"]').trigger('click');
    await flushPromises();
    const items = w.findAll('[data-test^="composer-item-"]');
    expect(items).toHaveLength(2);
    expect(value(w, '[data-test="composer-item-0"] [data-test="field-name"]')).toBe(
      'Wiese am Bach',
    );
    expect(value(w, '[data-test="composer-item-1"] [data-test="field-name"]')).toBe('Acker Nord');
    // The second item copies the first's fields.
    expect(value(w, '[data-test="composer-item-1"] [data-test="field-project"]')).toBe('proj-7');
    expect(w.find('[data-test="composer-item-1"] [data-test="geometry-state"]').text()).toBe(
      '1 feature · felder.kmz · Acker Nord',
    );
    expect(w.find('[data-test="file-import-done"]').text()).toBe(
      '2 order items from felder.kmz: Wiese am Bach, Acker Nord.',
    );

    await w.find('[data-test="queue-order"]').trigger('click');
    await flushPromises();
    const queued = bridge.calls.filter((c) => c.method === 'outbox.enqueue');
    expect(queued).toHaveLength(1);
    const order = (queued[0]!.input as { input: { order_items: Array<Record<string, unknown>> } })
      .input;
    expect(order.order_items.map((i) => [i['name'], i['project_id']])).toEqual([
      ['Wiese am Bach', 'proj-7'],
      ['Acker Nord', 'proj-7'],
    ]);
    expect(order.order_items.map((i) => i['geometry'])).toEqual(
      [KMZ.features[0]!, KMZ.features[2]!].map((f) => ({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: f.area, properties: { name: f.name } }],
      })),
    );
  });

  it('names the items from a chosen attribute', async () => {
    const w = await composerWithFile();
    bridge.filePreviews.set('felder.kmz', {
      ...KMZ,
      features: KMZ.features.map((f) => ({ ...f, name: String(f.properties['flur'] ?? '') })),
    });
    await w.find('[data-test="import-name-field"]').setValue('flur');
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'files.preview')[1]!.input).toMatchObject({
      nameField: 'flur',
    });
    await w.find('[data-test="import-items"]').trigger('click');
    expect(value(w, '[data-test="composer-item-0"] [data-test="field-name"]')).toBe('F-12');
    expect(value(w, '[data-test="composer-item-1"] [data-test="field-name"]')).toBe('F-14');
  });

  it('merged, the picked features are one item area; a typed name is kept', async () => {
    const w = await composerWithFile();
    await w.find('[data-test="composer-item-0"] [data-test="field-name"]').setValue('Both fields');
    await w.find('[data-test="import-merge"]').setValue(true);
    expect(w.find('[data-test="import-items"]').attributes('disabled')).toBeDefined();
    await w.find('[data-test="import-use"]').trigger('click');
    expect(w.findAll('[data-test^="composer-item-"]')).toHaveLength(1);
    expect(w.find('[data-test="geometry-state"]').text()).toBe(
      '1 feature · felder.kmz · 2 features merged',
    );
    expect(value(w, '[data-test="field-name"]')).toBe('Both fields');
    expect(w.find('[data-test="file-import-done"]').text()).toBe(
      "The area of 2 features is item 1's.",
    );
  });

  it("another item's import shows under that item only", async () => {
    const w = await composerWithFile();
    await w.find('[data-test="add-item"]').trigger('click');
    await flushPromises();
    const second = w.find('[data-test="composer-item-1"]');
    const input = second.find('[data-test="import-file"]');
    Object.defineProperty(input.element, 'files', {
      value: [new File(['PK fake zip'], 'felder.kmz')],
      configurable: true,
    });
    await input.trigger('change');
    await flushPromises();
    expect(w.find('[data-test="composer-item-0"] [data-test="file-import-preview"]').exists()).toBe(
      false,
    );
    expect(second.find('[data-test="file-import-preview"]').exists()).toBe(true);
    await second.find('[data-test="import-items"]').trigger('click');
    // The first item untouched, the file's two features are items 2 and 3.
    expect(w.find('[data-test="composer-item-0"] [data-test="geometry-state"]').text()).toBe(
      'No area yet.',
    );
    expect(value(w, '[data-test="composer-item-2"] [data-test="field-name"]')).toBe('Acker Nord');
  });
});
