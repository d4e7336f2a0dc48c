/**
 * "Share for the field…" and "Open a field package…" in happy-dom over the memory bridge (the
 * backend's packages are src/backend/__tests__/field-packages.spec.ts): the plan shown before
 * writing, the package downloaded in browser mode or said saved in Electron, a picked package
 * sent as bytes and its merge said; a refusal said as an alert.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import OpenPackage from '../OpenPackage.vue';
import SharePackage from '../SharePackage.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 2 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  vi.restoreAllMocks();
});

const callsOf = (method: string) => bridge.calls.filter((c) => c.method === method);

describe('Share for the field…', () => {
  it('shows what the package holds, then downloads it (browser mode)', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    wrapper = mount(SharePackage, {
      props: { selection: { kind: 'aoi', aoiId: 'a-1' } },
      attachTo: document.body,
    });
    await wrapper.find('[data-test="share-package-plan"]').trigger('click');
    await flushPromises();
    // (the bridge parses inputs as the backend does: the domain's defaults added)
    expect(callsOf('packages.plan').map((c) => c.input)).toMatchObject([
      { selection: { kind: 'aoi', aoiId: 'a-1' } },
    ]);
    expect(wrapper.find('[data-test="share-package-contents"]').text()).toMatch(
      /^AOI Maize north: 1 AOI, 12 catalog records, 0 order records, 12 pictures; about .+\.$/,
    );
    expect(callsOf('packages.share')).toEqual([]);
    await wrapper.find('[data-test="share-package-save"]').trigger('click');
    await flushPromises();
    expect(callsOf('packages.share').length).toBe(1);
    expect(click).toHaveBeenCalledTimes(1);
    expect(wrapper.find('[data-test="share-package-outcome"]').text()).toMatch(
      /^Downloaded eo-package-aoi-maize-north-20261128\.gpkg/,
    );
  });

  it('says a refusal as an alert', async () => {
    bridge.failWith(
      'packages.plan',
      new ContractError('invalid_argument', 'AOI a-9 is not in this mirror: sync it first'),
    );
    wrapper = mount(SharePackage, { props: { selection: { kind: 'aoi', aoiId: 'a-9' } } });
    await wrapper.find('[data-test="share-package-plan"]').trigger('click');
    await flushPromises();
    const out = wrapper.find('[data-test="share-package-outcome"]');
    expect(out.attributes('role')).toBe('alert');
    expect(out.text()).toContain('AOI a-9 is not in this mirror: sync it first');
  });
});

describe('Open a field package…', () => {
  const pick = async (w: VueWrapper, file: File) => {
    const input = w.find<HTMLInputElement>('[data-test="open-package-file"]');
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await flushPromises();
  };

  it('sends the picked package as bytes and says what was merged', async () => {
    wrapper = mount(OpenPackage);
    await pick(wrapper, new File(['gpkg'], 'site.gpkg'));
    expect(callsOf('packages.open').map((c) => c.input)).toEqual([
      { name: 'site.gpkg', base64: btoa('gpkg') },
    ]);
    expect(wrapper.find('[data-test="open-package-outcome"]').text()).toBe(
      "AOI Maize north: 11 records added, 1 updated, 1 kept (this laptop's were as new or newer); 12 pictures added.",
    );
  });

  it('refuses what is no package without sending it, and says the backend’s refusal', async () => {
    wrapper = mount(OpenPackage);
    await pick(wrapper, new File(['x'], 'notes.txt'));
    expect(callsOf('packages.open')).toEqual([]);
    expect(wrapper.find('[data-test="open-package-outcome"]').text()).toBe(
      'notes.txt: a field package is a .gpkg file.',
    );
    bridge.failWith(
      'packages.open',
      new ContractError('invalid_argument', 'site.gpkg: The package is from another origin'),
    );
    await pick(wrapper, new File(['gpkg'], 'site.gpkg'));
    const out = wrapper.find('[data-test="open-package-outcome"]');
    expect(out.attributes('role')).toBe('alert');
    expect(out.text()).toBe('Not opened: site.gpkg: The package is from another origin');
  });
});
