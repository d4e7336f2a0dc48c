import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useSettingsStore } from '../settings-store';
import SettingsScreen from '../SettingsScreen.vue';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 20 });
  provideBridge(bridge);
});

async function mountSettings() {
  await useSettingsStore().load();
  const wrapper = mount(SettingsScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

describe('SettingsScreen', () => {
  it('never shows the stored API key, only that one is set', async () => {
    const wrapper = await mountSettings();
    const key = wrapper.find('input[name="apiKey"]');
    expect(key.attributes('type')).toBe('password');
    expect((key.element as HTMLInputElement).value).toBe('');
    expect(wrapper.find('[data-test="key-state"]').text()).toContain('A key is stored');
    expect((wrapper.find('input[name="serviceUrl"]').element as HTMLInputElement).value).toBe(
      'https://imagery.example.org',
    );
    expect(wrapper.find('[data-test="storage"]').text()).toBe('5 MB');
  });

  it('says how the key is kept: encrypted only where it is, a private file in browser mode', async () => {
    bridge.settings = { ...bridge.settings, apiKeyStorage: 'owner-only-file' };
    let state = (await mountSettings()).find('[data-test="key-state"]').text();
    expect(state).toContain('a file only you can read');
    expect(state).not.toMatch(/stored encrypted|encrypted with/);
    document.body.innerHTML = '';
    bridge.settings = { ...bridge.settings, apiKeyStorage: 'os-keychain' };
    state = (await mountSettings()).find('[data-test="key-state"]').text();
    expect(state).toContain('encrypted with the system keychain');
  });

  it('shows validation messages beside the fields and sends nothing', async () => {
    const wrapper = await mountSettings();
    await wrapper.find('input[name="serviceUrl"]').setValue('imagery.example.org');
    await wrapper.find('input[name="tileUrl"]').setValue('https://t.example.org/{z}/{x}.png');
    await wrapper.find('input[name="syncIntervalMinutes"]').setValue('5000');
    const before = bridge.calls.length;
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    expect(bridge.calls.length).toBe(before);
    expect(wrapper.find('#err-serviceUrl').text()).toMatch(/starting with https:\/\//);
    expect(wrapper.find('#err-tileUrl').text()).toMatch(/\{y\}/);
    expect(wrapper.find('#err-syncIntervalMinutes').text()).toMatch(/0 \(manual only\) to 1440/);
    expect(wrapper.find('input[name="serviceUrl"]').attributes('aria-invalid')).toBe('true');
  });

  it('saves a new key write-only and empties the field afterwards', async () => {
    bridge.settings = { ...bridge.settings, apiKeySet: false };
    const wrapper = await mountSettings();
    expect(wrapper.find('[data-test="key-state"]').text()).toBe(
      'No key stored for https://imagery.example.org yet.',
    );
    await wrapper.find('input[name="apiKey"]').setValue('k-123456');
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    const update = bridge.calls.find((c) => c.method === 'settings.update');
    expect(update?.input).toEqual({ apiKey: 'k-123456' });
    expect((wrapper.find('input[name="apiKey"]').element as HTMLInputElement).value).toBe('');
    expect(wrapper.find('[data-test="key-state"]').text()).toContain('A key is stored');
    expect(wrapper.text()).toContain('Saved.');
    // Saving checks the connection again, so the indicator tells the truth at once.
    expect(bridge.calls.some((c) => c.method === 'connectivity.check')).toBe(true);
  });

  it('forgets the stored key on request', async () => {
    const wrapper = await mountSettings();
    await wrapper.find('button.forget').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'settings.update')?.input).toEqual({
      apiKey: null,
    });
    expect(wrapper.find('[data-test="key-state"]').text()).toBe(
      'No key stored for https://imagery.example.org yet.',
    );
    expect(wrapper.find('button.forget').exists()).toBe(false);
  });

  it('says which service the key is kept for, lists the keys kept for others, forgets one', async () => {
    const here = 'https://imagery.example.org';
    const there = 'https://other.example.net:8443';
    bridge.settings = { ...bridge.settings, keptKeys: [here, there, 'embedded'] };
    const wrapper = await mountSettings();
    expect(wrapper.find('[data-test="key-state"]').text()).toMatch(
      /^Key kept for https:\/\/imagery\.example\.org\. /,
    );
    const items = () => wrapper.findAll('[data-test="kept-keys"] li').map((li) => li.text());
    expect(items()).toEqual([`${there} Forget`, 'the built-in demo service Forget']);
    const forget = wrapper.find(`button[aria-label="Forget the key kept for ${there}"]`);
    expect(forget.exists()).toBe(true);
    await forget.trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'settings.update')?.input).toEqual({
      forgetKey: there,
    });
    expect(items()).toEqual(['the built-in demo service Forget']);
    // Another service: its own key is asked for; the first one's stays in the list.
    await wrapper.find('input[name="serviceUrl"]').setValue(`${there}/api`);
    await wrapper.find('form').trigger('submit');
    await flushPromises();
    expect(wrapper.find('[data-test="key-state"]').text()).toBe(`No key stored for ${there} yet.`);
    expect(items()).toEqual([`${here} Forget`, 'the built-in demo service Forget']);
    // The keys themselves never reach the screen: only origins and a boolean.
    expect(Object.keys(bridge.settings)).not.toContain('apiKey');
  });

  it('asks before clearing the mirror', async () => {
    const wrapper = await mountSettings();
    await wrapper.find('button.btn--danger').trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'mirror.clear')).toBe(false);
    const dialog = wrapper.find('[role="alertdialog"]');
    expect(dialog.text()).toContain('Delete all mirrored data (5 MB)?');
    // Focus goes to Cancel, the safe choice.
    expect(document.activeElement?.textContent?.trim()).toBe('Cancel');
    await dialog.findAll('button')[1]!.trigger('click');
    expect(wrapper.find('[role="alertdialog"]').exists()).toBe(false);

    await wrapper.find('button.btn--danger').trigger('click');
    await wrapper.find('[role="alertdialog"] button.btn--danger').trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'mirror.clear')).toBe(true);
    expect(wrapper.text()).toContain('The mirror is empty.');
    expect(wrapper.find('[data-test="storage"]').text()).toBe('0 B');
  });

  it('has an error state when the settings cannot be read', async () => {
    bridge.failWith('settings.get', new ContractError('internal', 'settings file unreadable'));
    const wrapper = await mountSettings();
    expect(wrapper.find('[role="alert"]').text()).toContain('settings file unreadable');
    bridge.failWith('settings.get', null);
    await wrapper.find('[role="alert"] button').trigger('click');
    await flushPromises();
    expect(wrapper.find('form').exists()).toBe(true);
  });
});
