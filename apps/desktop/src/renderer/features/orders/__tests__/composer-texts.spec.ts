/**
 * Texts of the composer that took a person by surprise (issue 17, item 15): with no catalog
 * selection, "Use the 0 records selected" is never shown; the button is disabled and says why.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { NO_SELECTION_REASON, selectionAction } from '../../../format/selection';
import { provideBridge } from '../../../stores/bridge-provider';
import { useBasketStore } from '../../../stores/basket-store';
import OrderComposer from '../OrderComposer.vue';

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 4 }));
});

describe('using the basket', () => {
  it('with none selected: disabled, no count, the reason beside it', async () => {
    const w = mount(OrderComposer, { attachTo: document.body });
    try {
      await flushPromises();
      const use = w.find('[data-test="use-selection"]');
      expect(use.text()).toBe('Use records in the basket');
      expect(use.attributes('disabled')).toBeDefined();
      const reason = w.find('[data-test="use-selection-reason"]');
      expect(reason.text()).toBe(NO_SELECTION_REASON);
      expect(use.attributes('aria-describedby')).toBe(reason.attributes('id'));
      expect(w.text()).not.toMatch(/\b0 records?\b/);

      await useBasketStore().add(['r-1']);
      await flushPromises();
      expect(use.text()).toBe('Use the 1 record in the basket');
      expect(use.attributes('disabled')).toBeUndefined();
      expect(w.find('[data-test="use-selection-reason"]').exists()).toBe(false);
    } finally {
      w.unmount();
    }
  });

  it('the AOI form says the same with its own verb', () => {
    expect(selectionAction('Add', 0)).toBe('Add records in the basket');
    expect(selectionAction('Add', 3)).toBe('Add the 3 records in the basket');
  });
});
