/**
 * After the service URL changed, the screens of mirrored records say which of their data may be
 * the old service's (the sync status's `otherServices`), and an outbox entry queued for the old
 * service says it is held for it; nothing is marked while the mirror holds only this service's.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { indexCreate, queue } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import AoisScreen from '../../aois/AoisScreen.vue';
import OutboxScreen from '../../outbox/OutboxScreen.vue';
import { useOutboxStore } from '../../outbox/outbox-store';
import { useSyncStore } from '../sync-store';

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

const OLD = 'https://old.example.org';

async function mountWith(screen: typeof AoisScreen | typeof OutboxScreen, others?: string[]) {
  bridge.syncStatus = {
    running: false,
    resources: [{ resource: 'aois', lastCompleteAt: null, lastError: null, count: 3 }],
    ...(others ? { otherServices: others } : {}),
  };
  await useSyncStore().refresh();
  await useOutboxStore().refresh();
  wrapper = mount(screen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const mark = (w: VueWrapper) => w.find('[data-test="other-service-mark"]');

describe('data of another service', () => {
  it('is marked on the AOIs screen, as a note naming the service', async () => {
    const w = await mountWith(AoisScreen, [OLD, 'embedded']);
    expect(mark(w).attributes('role')).toBe('note');
    expect(mark(w).text()).toMatch(
      /^From https:\/\/old\.example\.org, the built-in demo service, not the service now set\. AOIs listed/,
    );
  });

  it('is not marked while the mirror holds only this service’s data', async () => {
    const w = await mountWith(AoisScreen);
    expect(mark(w).exists()).toBe(false);
  });

  it('is marked on the Outbox, and an entry queued for it says it is held for it', async () => {
    const entry = await queue(bridge, indexCreate('Red edge'));
    const other = await queue(bridge, indexCreate('Here'));
    bridge.work.outbox.splice(
      bridge.work.outbox.findIndex((e) => e.id === entry.id),
      1,
      { ...entry, queuedFor: OLD },
    );
    const w = await mountWith(OutboxScreen, [OLD]);
    expect(mark(w).text()).toContain(`From ${OLD}, not the service now set.`);
    const card = (id: string) => w.find(`[data-test="outbox-entry"][data-id="${id}"]`);
    const held = card(entry.id).find('[data-test="queued-elsewhere"]');
    expect(held.attributes('role')).toBe('note');
    expect(held.text()).toMatch(
      /^From https:\/\/old\.example\.org, not the service now set: .*never sent to another service/,
    );
    expect(card(other.id).find('[data-test="queued-elsewhere"]').exists()).toBe(false);
  });
});
