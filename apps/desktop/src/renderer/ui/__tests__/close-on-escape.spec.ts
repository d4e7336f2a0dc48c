/**
 * Esc closes what was opened last and gives the focus back to what opened it, one way for every
 * popover (issue 26: Esc closed no dialog): the map's "Layers" panel, the outbox notice's
 * details, and layers opened one over another.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h, nextTick, ref } from 'vue';
import { DEFAULT_LAYERS } from '../../map/layer-state';
import MapLayers from '../../map/MapLayers.vue';
import { closeOnEscape, openLayers } from '../close-on-escape';

const escape = (target: Element = document.activeElement ?? document.body) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));

/** A button that opens a panel (a layer), as the app's popovers do. */
const Popover = defineComponent({
  props: { name: { type: String, required: true } },
  setup(props) {
    const open = ref(false);
    closeOnEscape(open);
    return () =>
      h('div', [
        h('button', { 'data-test': `${props.name}-opener`, onClick: () => (open.value = true) }),
        open.value ? h('div', { 'data-test': `${props.name}-panel` }) : null,
      ]);
  },
});

let unmounts: Array<() => void> = [];
afterEach(() => {
  unmounts.forEach((u) => u());
  unmounts = [];
});

function attach<T extends { unmount(): void }>(w: T): T {
  unmounts.push(() => w.unmount());
  return w;
}

describe('Esc closes what was opened, the focus back to its opener', () => {
  it('the map\'s "Layers" panel', async () => {
    const w = attach(
      mount(MapLayers, {
        attachTo: document.body,
        props: { modelValue: { ...DEFAULT_LAYERS }, onlineAvailable: false, overlays: [] },
      }),
    );
    const button = w.find<HTMLButtonElement>('[data-test="layers-button"]');
    button.element.focus();
    await button.trigger('click');
    await flushPromises();
    expect(button.attributes('aria-expanded')).toBe('true');
    // Esc from inside the panel, as a keyboard user would be.
    escape(w.find('.map-layers__part').element);
    await nextTick();
    expect(button.attributes('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button.element);
    expect(openLayers()).toBe(0);
  });

  it('one layer at a time, the last opened first; an Escape a control used is left to it', async () => {
    const a = attach(mount(Popover, { attachTo: document.body, props: { name: 'a' } }));
    const b = attach(mount(Popover, { attachTo: document.body, props: { name: 'b' } }));
    const openerA = a.find<HTMLButtonElement>('[data-test="a-opener"]');
    const openerB = b.find<HTMLButtonElement>('[data-test="b-opener"]');
    openerA.element.focus();
    await openerA.trigger('click');
    openerB.element.focus();
    await openerB.trigger('click');
    expect(openLayers()).toBe(2);

    // A control that handles Esc itself (it prevents the default) keeps it.
    const used = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    used.preventDefault();
    document.body.dispatchEvent(used);
    await nextTick();
    expect(openLayers()).toBe(2);

    escape();
    await nextTick();
    expect(b.find('[data-test="b-panel"]').exists()).toBe(false);
    expect(a.find('[data-test="a-panel"]').exists()).toBe(true);
    expect(document.activeElement).toBe(openerB.element);
    escape();
    await nextTick();
    expect(a.find('[data-test="a-panel"]').exists()).toBe(false);
    expect(document.activeElement).toBe(openerA.element);
    // Nothing open: Esc does nothing.
    expect(escape()).toBe(true);
  });

  it('a layer that goes with its component leaves the stack', async () => {
    const a = mount(Popover, { attachTo: document.body, props: { name: 'a' } });
    await a.find('[data-test="a-opener"]').trigger('click');
    expect(openLayers()).toBe(1);
    a.unmount();
    expect(openLayers()).toBe(0);
  });
});
