/**
 * CatalogScreen mounted alone for a spec (a new Pinia, `bridge`, the app's router on a memory
 * history), unmounted when the test ends, with what its side panels show.
 */
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { onTestFinished } from 'vitest';
import { createMemoryHistory } from 'vue-router';
import type { MemoryBridge } from '../../../__tests__/memory-bridge';
import { createAppRouter } from '../../../router';
import { provideBridge } from '../../../stores/bridge-provider';
import CatalogScreen from '../CatalogScreen.vue';

export function mountCatalogScreen(bridge: MemoryBridge): {
  wrapper: VueWrapper;
  panels: () => { filters: boolean; saved: boolean; basket: boolean };
} {
  setActivePinia(createPinia());
  provideBridge(bridge);
  const router = createAppRouter(createMemoryHistory());
  const wrapper = mount(CatalogScreen, { attachTo: document.body, global: { plugins: [router] } });
  onTestFinished(() => wrapper.unmount());
  const panels = () => ({
    filters: wrapper.find('form.filters').exists(),
    saved: wrapper.find('section.saved').exists(),
    basket: wrapper.find('[data-test="basket"]').exists(),
  });
  return { wrapper, panels };
}
