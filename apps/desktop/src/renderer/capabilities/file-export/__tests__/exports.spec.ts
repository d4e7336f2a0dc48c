/**
 * "Export…" in happy-dom: the screens' sources sent to `files.export` (the backend's files are
 * src/backend/__tests__/files-export.spec.ts), a browser-mode answer downloaded by the page,
 * Electron's (saved by main: main/__tests__/save-export.spec.ts) said with its path.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import { useBasketStore } from '../../../stores/basket-store';
import ExportsMenu from '../ExportsMenu.vue';
import ScreenExports from '../ScreenExports.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 4 });
  provideBridge(bridge);
});

afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  vi.restoreAllMocks();
});

async function catalogExports(menu = false) {
  const catalog = useCatalogStore();
  await catalog.search();
  await useBasketStore().add([bridge.records[1]!.id, bridge.records[3]!.id]);
  wrapper = menu
    ? mount(ExportsMenu, { props: { screen: 'catalog' }, attachTo: document.body })
    : mount(ScreenExports, { props: { screen: 'catalog' }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const exports = () => bridge.calls.filter((c) => c.method === 'files.export').map((c) => c.input);

describe('Exports', () => {
  it('as a menu (the catalog): one "Export…" button, folded, holding both exports', async () => {
    const w = await catalogExports(true);
    const menu = w.find<HTMLDetailsElement>('details[data-test="exports-menu"]');
    expect(menu.element.open).toBe(false);
    expect(menu.find('summary').text()).toBe('Export…');
    // The exports' code loads when the menu first opens (lazy-parts.ts).
    expect(menu.find('[data-test="export-results-run"]').exists()).toBe(false);
    menu.element.open = true;
    await menu.trigger('toggle');
    expect(menu.find('[data-test="export-results-run"]').exists()).toBe(true);
    expect(menu.find('[data-test="export-selection-run"]').text()).toBe(
      'Export the 2 in the basket',
    );
  });

  it('as a menu, closes as one: Esc (focus back on its button), a click outside, the focus elsewhere', async () => {
    const w = await catalogExports(true);
    const menu = w.find<HTMLDetailsElement>('details[data-test="exports-menu"]');
    const outside = document.createElement('button');
    document.body.appendChild(outside);
    const openMenu = async () => {
      menu.element.open = true;
      await menu.trigger('toggle');
    };
    try {
      await openMenu();
      await menu.find('[data-test="export-results-run"]').trigger('keydown', { key: 'Escape' });
      expect(menu.element.open).toBe(false);
      expect(document.activeElement).toBe(menu.find('summary').element);

      await openMenu();
      // Inside it: stays open.
      menu
        .find('[data-test="export-results-run"]')
        .element.dispatchEvent(new Event('pointerdown', { bubbles: true }));
      expect(menu.element.open).toBe(true);
      outside.dispatchEvent(new Event('pointerdown', { bubbles: true }));
      expect(menu.element.open).toBe(false);
      await menu.trigger('toggle');

      await openMenu();
      // The focus going nowhere (a save dialog) keeps it; to another control closes it.
      await menu.trigger('focusout', { relatedTarget: null });
      expect(menu.element.open).toBe(true);
      await menu.trigger('focusout', { relatedTarget: outside });
      expect(menu.element.open).toBe(false);
    } finally {
      outside.remove();
    }
  });

  it("the search results are the catalog's query; the selection its ids; CSV with WKT", async () => {
    const w = await catalogExports();
    await w.find('[data-test="export-results-format"]').setValue('kmz');
    await w.find('[data-test="export-results-run"]').trigger('click');
    await flushPromises();
    // The memory bridge records the input as dispatch parsed it (page defaults filled in).
    expect(exports()[0]).toMatchObject({
      source: { kind: 'catalog', query: useCatalogStore().query! },
      format: 'kmz',
    });
    expect(w.find('[data-test="export-selection-run"]').text()).toBe('Export the 2 in the basket');
    await w.find('[data-test="export-selection-format"]').setValue('csv');
    // A CSV carries each footprint as WKT unless the box is unticked.
    expect((w.find('[data-test="export-selection-wkt"]').element as HTMLInputElement).checked).toBe(
      true,
    );
    await w.find('[data-test="export-selection-run"]').trigger('click');
    await flushPromises();
    expect(exports()[1]).toEqual({
      source: { kind: 'catalogRecords', ids: [bridge.records[1]!.id, bridge.records[3]!.id] },
      format: 'csv',
    });
    await w.find('[data-test="export-selection-wkt"]').setValue(false);
    await w.find('[data-test="export-selection-run"]').trigger('click');
    await flushPromises();
    expect(exports()[2]).toMatchObject({ format: 'csv', wkt: false });
  });

  it('browser mode: the page downloads the bytes under the file name', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      created.push(b as Blob);
      return 'blob:eo-1';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.href, download: this.download });
    });
    const w = await catalogExports();
    await w.find('[data-test="export-results-run"]').trigger('click');
    await flushPromises();
    expect(clicked).toEqual([{ href: 'blob:eo-1', download: 'eo-export.geojson' }]);
    expect(await created[0]!.text()).toBe('data');
    expect(w.find('[data-test="export-results-outcome"]').text()).toBe(
      'Downloaded eo-export.geojson (2 features).',
    );
  });

  it('Electron: saved by main, said with the path; a cancelled dialog; a refusal', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    const answer = bridge.exportAnswer;
    bridge.exportAnswer = (input) => ({ ...answer(input), base64: '', savedTo: '/home/f/r.kmz' });
    const w = await catalogExports();
    await w.find('[data-test="export-results-run"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="export-results-outcome"]').text()).toBe(
      'Saved 2 features to /home/f/r.kmz.',
    );
    bridge.exportAnswer = (input) => ({ ...answer(input), base64: '', savedTo: null });
    await w.find('[data-test="export-results-run"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="export-results-outcome"]').text()).toBe(
      'Not saved: the dialog was cancelled.',
    );
    expect(click).not.toHaveBeenCalled();
    bridge.failWith(
      'files.export',
      new ContractError('invalid_argument', 'More than 100,000 features'),
    );
    await w.find('[data-test="export-results-run"]').trigger('click');
    await flushPromises();
    const outcome = w.find('[data-test="export-results-outcome"]');
    expect(outcome.attributes('role')).toBe('alert');
    expect(outcome.text()).toBe('Not exported: More than 100,000 features');
  });

  it('AOIs listed, the open order, deliveries', async () => {
    wrapper = mount(ScreenExports, { props: { screen: 'deliveries' } });
    await wrapper.find('[data-test="export-deliveries-run"]').trigger('click');
    await flushPromises();
    expect(exports()[0]).toEqual({ source: { kind: 'deliveries' }, format: 'geojson' });
    wrapper.unmount();
    // Nothing listed yet: nothing to export.
    wrapper = mount(ScreenExports, { props: { screen: 'aois' } });
    expect(wrapper.find('[data-test="export-aois-run"]').attributes('disabled')).toBeDefined();
  });
});
