/**
 * An archive item mixing satellites is refused when queued, and the refusal carries the split
 * (one item per satellite, @eo/sync's order checks): "Split into one item per satellite" in
 * the composer applies it and queues the fixed order in one click (issue 17, item 2).
 */
import type { FeatureCollectionInput } from '@eo/domain';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useComposerStore } from '../composer-store';
import OrderComposer from '../OrderComposer.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const feature = (x: number) => ({
  type: 'Feature' as const,
  properties: {},
  geometry: {
    type: 'Polygon' as const,
    coordinates: [
      [
        [x, 10],
        [x + 0.2, 10],
        [x + 0.2, 10.2],
        [x, 10.2],
        [x, 10],
      ],
    ],
  },
});
const both: FeatureCollectionInput = {
  type: 'FeatureCollection',
  features: [feature(10), feature(20)],
};
const item = (name: string, ids: string[], geometry: FeatureCollectionInput) => ({
  project_id: 'prj-demo-crops',
  name,
  geometry,
  item_ids: ids,
});
/** What the outbox offers: the item split by satellite, named after each. */
const SPLIT = [
  item('Select all (aurora-1)', ['AUR1_A'], { type: 'FeatureCollection', features: [feature(10)] }),
  item('Select all (kestrel-1)', ['KES1_B'], {
    type: 'FeatureCollection',
    features: [feature(20)],
  }),
];

function refusal(): ContractError {
  return new ContractError('invalid_argument', 'Not queued: share no bandset', {
    issues: [
      {
        path: 'input.order_items.0.item_ids.1',
        message: '"Select all": scenes of aurora-1 and kestrel-1 share no bandset',
        fix: { order_items: SPLIT },
      },
    ],
  });
}

function fillMixed(): void {
  const c = useComposerStore();
  const key = c.items[0]!.key;
  c.setKind(key, 'archive');
  c.set(key, 'name', 'Select all');
  c.set(key, 'projectId', 'prj-demo-crops');
  c.setGeometry(key, both, 'Footprints of 2 catalog records');
  c.set(key, 'itemIds', 'AUR1_A\nKES1_B');
}

const enqueued = () => bridge.calls.filter((c) => c.method === 'outbox.enqueue');

describe('the split offered with a refusal', () => {
  it('"Split into one item per satellite" queues the fixed order in one click', async () => {
    wrapper = mount(OrderComposer, { attachTo: document.body });
    fillMixed();
    bridge.failWith('outbox.enqueue', refusal());
    await wrapper.find('[data-test="queue-order"]').trigger('submit');
    await flushPromises();
    expect(bridge.work.outbox).toHaveLength(0);
    const offer = wrapper.find('[data-test="split-fix"]');
    expect(offer.text()).toContain('one item per satellite (2 items)');

    bridge.failWith('outbox.enqueue', null);
    await offer.find('[data-test="apply-split"]').trigger('click');
    await flushPromises();
    expect(enqueued().at(-1)!.input).toMatchObject({
      kind: 'order',
      input: { order_items: SPLIT },
    });
    expect(bridge.work.outbox).toHaveLength(1);
    expect(wrapper.find('[data-test="queued-message"]').text()).toBe(
      'Order (2 items) is queued and will be submitted from the Outbox.',
    );
    expect(wrapper.find('[data-test="split-fix"]').exists()).toBe(false);
  });

  it('is offered only for the order refused: a change drops it', async () => {
    const c = useComposerStore();
    fillMixed();
    bridge.failWith('outbox.enqueue', refusal());
    await c.submit();
    expect(c.splitFix).toEqual(SPLIT);
    c.set(c.items[0]!.key, 'itemIds', 'AUR1_A');
    expect(c.splitFix).toBeNull();
    // A refusal without a fix offers nothing.
    bridge.failWith(
      'outbox.enqueue',
      new ContractError('invalid_argument', 'Not queued', {
        issues: [{ path: 'input.order_items.0.name', message: 'a duplicate' }],
      }),
    );
    await c.submit();
    expect(c.splitFix).toBeNull();
  });
});
