/**
 * A part loaded on first use (ui/lazy-part.ts): says it is loading while its code comes, says
 * so with "Try again" when the code cannot be loaded, and once loaded is the loaded component
 * with the host's props, listeners and class.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h, type Component } from 'vue';
import { lazyPart, loadLazyParts } from '../lazy-part';

const Tool = defineComponent({
  props: { label: { type: String, required: true } },
  emits: ['pick'],
  setup(props, { emit }) {
    return () => h('button', { 'data-test': 'tool', onClick: () => emit('pick', 7) }, props.label);
  },
});

/** A loader the test answers: `resolve()` hands the code over, `reject()` fails the load. */
function controlledLoader() {
  const calls: Array<{ resolve: () => void; reject: () => void }> = [];
  const load = () =>
    new Promise<{ default: Component }>((resolve, reject) => {
      calls.push({
        resolve: () => resolve({ default: Tool }),
        reject: () => reject(new Error('chunk')),
      });
    });
  return { load, calls };
}

describe('a lazy part', () => {
  it('says it is loading, then is the loaded component with the props and listeners given', async () => {
    const { load, calls } = controlledLoader();
    const Part = lazyPart('the tool', load);
    const picked: number[] = [];
    const w = mount(Part, {
      props: { label: 'Go', class: 'place', onPick: (n: number) => picked.push(n) },
    });
    const loading = w.find('[data-test="lazy-part-loading"]');
    expect(loading.attributes('role')).toBe('status');
    expect(loading.text()).toBe('Loading the tool…');
    expect(loading.classes()).toContain('place');
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    await flushPromises();
    expect(w.find('[data-test="lazy-part-loading"]').exists()).toBe(false);
    const tool = w.find('[data-test="tool"]');
    expect(tool.text()).toBe('Go');
    expect(tool.classes()).toContain('place');
    await tool.trigger('click');
    expect(picked).toEqual([7]);
  });

  it('mounts at once, without loading again, once its code is there', async () => {
    const { load, calls } = controlledLoader();
    const Part = lazyPart('the tool', load);
    const first = mount(Part, { props: { label: 'One' } });
    calls[0]!.resolve();
    await flushPromises();
    first.unmount();
    const again = mount(Part, { props: { label: 'Two' } });
    expect(again.find('[data-test="tool"]').text()).toBe('Two');
    expect(calls).toHaveLength(1);
  });

  it('says when its code cannot be loaded, and "Try again" loads it again', async () => {
    const { load, calls } = controlledLoader();
    const Part = lazyPart('the compare tool', load);
    const w = mount(Part, { props: { label: 'Go' } });
    calls[0]!.reject();
    await flushPromises();
    const error = w.find('[data-test="lazy-part-error"]');
    expect(error.attributes('role')).toBe('alert');
    expect(error.text()).toContain('The compare tool could not be loaded.');
    await error.find('button').trigger('click');
    expect(calls).toHaveLength(2);
    await flushPromises();
    expect(w.find('[data-test="lazy-part-loading"]').exists()).toBe(true);
    calls[1]!.resolve();
    await flushPromises();
    expect(w.find('[data-test="lazy-part-error"]').exists()).toBe(false);
    expect(w.find('[data-test="tool"]').text()).toBe('Go');
  });

  it('loadLazyParts() loads the parts not mounted yet', async () => {
    const { load, calls } = controlledLoader();
    const Part = lazyPart('the tool', load);
    const all = loadLazyParts();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    await all;
    const w = mount(Part, { props: { label: 'Ready' } });
    expect(w.find('[data-test="tool"]').text()).toBe('Ready');
  });
});
