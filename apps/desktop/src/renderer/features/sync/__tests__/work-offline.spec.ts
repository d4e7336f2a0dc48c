/**
 * The "Work offline" switch beside "Check now" and in Settings: it asks the backend (the one
 * source of truth) at once, the indicator reads what the backend announces, and a refusal
 * names the switch.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useConnectivityStore } from '../../../stores/connectivity';
import { readableError } from '../../../stores/errors';
import SettingsScreen from '../../settings/SettingsScreen.vue';
import { useSettingsStore } from '../../../stores/settings-store';
import ConnectivityBadge from '../ConnectivityBadge.vue';
import SyncScreen from '../SyncScreen.vue';
import { createAppRouter } from '../../../router';
import { createMemoryHistory } from 'vue-router';
import StatusRefresh from '../../../ui/StatusRefresh.vue';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 5 });
  provideBridge(bridge);
});

const updates = () =>
  bridge.calls.filter((c) => c.method === 'settings.update').map((c) => c.input);

describe('Work offline', () => {
  it('beside "Check now": switches at once; the indicator reads "Working offline" with how to undo it', async () => {
    await useSettingsStore().load();
    const stop = useConnectivityStore().listen();
    const wrapper = mount(ConnectivityBadge, { props: { detailed: true } });
    await flushPromises();
    const box = wrapper.find<HTMLInputElement>('input[data-test="work-offline"]');
    expect(box.element.checked).toBe(false);
    expect(wrapper.text()).toContain('Check now');

    await box.setValue(true);
    await flushPromises();
    expect(updates()).toEqual([{ workOffline: true }]);
    bridge.emit('connectivity.changed', {
      state: 'working-offline',
      checkedAt: '2024-05-17T09:00:00.000Z',
      since: '2024-05-17T09:00:00.000Z',
      message:
        'Working offline: nothing is sent to the service. Turn off "Work offline" (on the Sync screen or in Settings) to use it.',
    });
    await flushPromises();
    expect(wrapper.find('[data-test="connectivity-label"]').text()).toBe('Working offline');
    // Said once: the backend's message says what the hint says.
    const desc = wrapper.find('.badge__desc').text();
    expect(desc.match(/Turn off "Work offline"/g)).toHaveLength(1);
    expect(desc.match(/nothing is sent to the service/gi)).toHaveLength(1);
    // Nothing to check while nothing may be sent.
    expect(wrapper.text()).not.toContain('Check now');
    expect(box.element.checked).toBe(true);

    await box.setValue(false);
    await flushPromises();
    expect(updates()).toEqual([{ workOffline: true }, { workOffline: false }]);
    stop();
  });

  it('in Settings: shows the stored switch and keeps what is typed but not saved', async () => {
    bridge.settings = { ...bridge.settings, workOffline: true };
    await useSettingsStore().load();
    const wrapper = mount(SettingsScreen, { attachTo: document.body });
    await flushPromises();
    const box = wrapper.find<HTMLInputElement>(
      '[data-test="work-offline-setting"] input[data-test="work-offline"]',
    );
    expect(box.element.checked).toBe(true);
    const url = wrapper.find<HTMLInputElement>('input[name="serviceUrl"]');
    await url.setValue('https://typed.example.org');

    await box.setValue(false);
    await flushPromises();
    expect(updates()).toEqual([{ workOffline: false }]);
    expect(box.element.checked).toBe(false);
    expect(url.element.value).toBe('https://typed.example.org');
    wrapper.unmount();
  });

  it('the Sync screen offers no "Sync now" while working offline', async () => {
    bridge.settings = { ...bridge.settings, workOffline: true };
    await useSettingsStore().load();
    const wrapper = mount(SyncScreen, {
      global: { plugins: [createAppRouter(createMemoryHistory())] },
    });
    await flushPromises();
    const button = wrapper.find('button[data-test="sync-now"]');
    expect(button.attributes('disabled')).toBeDefined();
    expect(button.attributes('title')).toMatch(/Work offline/);
    expect(wrapper.find<HTMLInputElement>('input[data-test="work-offline"]').element.checked).toBe(
      true,
    );
  });

  it('says "Working offline (by your choice)", never "not reachable", while the switch is on', async () => {
    const connectivity = useConnectivityStore();
    const at = '2024-05-17T09:00:00.000Z';
    connectivity.current = { state: 'working-offline', checkedAt: at, since: at };
    const refresh = mount(StatusRefresh, { props: { unfinished: true, kinds: ['deliveries'] } });
    await flushPromises();
    expect(refresh.find('#refresh-reason').text()).toBe(
      'Working offline (by your choice): statuses come from the service, so the last known ones are shown.',
    );
    const badge = mount(ConnectivityBadge);
    expect(badge.attributes('title')).toMatch(
      /^Working offline \(by your choice\): nothing is sent/,
    );
    for (const w of [refresh, badge]) expect(w.text()).not.toMatch(/not reachable/i);

    // The service's own absence is said as such, the technical reason in the title only.
    connectivity.current = {
      state: 'offline',
      checkedAt: at,
      since: at,
      message: 'The service cannot be reached: nothing answers at its address.',
      details: 'ECONNREFUSED',
    };
    await flushPromises();
    expect(refresh.find('#refresh-reason').text()).toMatch(/^The service is not reachable: /);
    expect(badge.attributes('title')).toMatch(/Technical reason: ECONNREFUSED\.$/);
    expect(badge.text()).not.toContain('ECONNREFUSED');
    refresh.unmount();
    badge.unmount();
  });

  it('a call refused while working offline names the switch', () => {
    const e = readableError(
      new ContractError('working_offline', 'Working offline: nothing is sent to the service.'),
    );
    expect(e.title).toBe('Working offline');
    expect(e.hint).toMatch(/Turn off "Work offline"/);
  });
});
