/**
 * The catalog's multi-select handed to the other screens: "Order…" opens the order composer
 * with an archive item of the selected records (their scene ids and footprints), "Deliver…"
 * opens the delivery form on the selection.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountApp } from '../../../__tests__/mount-app';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 6 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function appWithSelection(count: number): Promise<VueWrapper> {
  wrapper = mountApp();
  await flushPromises();
  const catalog = useCatalogStore();
  for (const r of bridge.records.slice(0, count)) catalog.toggle(r.id);
  await flushPromises();
  return wrapper;
}

describe('catalog selection hand-off', () => {
  it('both buttons wait for a selection', async () => {
    const w = await appWithSelection(0);
    expect(w.find('[data-test="order-selection"]').attributes('disabled')).toBeDefined();
    expect(w.find('[data-test="deliver-selection"]').attributes('disabled')).toBeDefined();
  });

  it('"Order…" opens the composer with an archive item of the selected scenes', async () => {
    const w = await appWithSelection(2);
    await w.find('[data-test="order-selection"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-screen="orders"]').attributes('aria-current')).toBe('page');
    expect((w.find('[data-test="field-kind"]').element as HTMLSelectElement).value).toBe('archive');
    const sceneIds = bridge.records.slice(0, 2).map((r) => r.details.id);
    expect((w.find('[data-test="field-item-ids"]').element as HTMLTextAreaElement).value).toBe(
      sceneIds.join('\n'),
    );
    // Taken once: going back to Orders later does not add the records again.
    await w.find('[data-screen="catalog"]').trigger('click');
    await flushPromises(); // navigation is a route change now: let it land
    await w.find('[data-screen="orders"]').trigger('click');
    await flushPromises();
    expect(w.findAll('[data-test="field-kind"]')).toHaveLength(0);
  });

  it('"Deliver…" opens the delivery form on the selected records', async () => {
    const w = await appWithSelection(3);
    await w.find('[data-test="deliver-selection"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-screen="deliveries"]').attributes('aria-current')).toBe('page');
    const listed = w.find('[data-test="catalog-source"]').text();
    for (const r of bridge.records.slice(0, 3)) expect(listed).toContain(r.id);
  });
});
