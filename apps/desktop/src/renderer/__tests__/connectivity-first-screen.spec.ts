/**
 * The start's connectivity check waits for the first screen: it loads the backend's HTTP client
 * and may wait on the service while the first screen's own calls are answered. Unconfigured,
 * nothing is asked, so it comes at once. A file of its own: the first screen is shown once per
 * page (ui/first-screen.ts), and this page must start without it.
 */
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { provideBridge } from '../stores/bridge-provider';
import { markResultsShown } from '../ui/first-screen';
import { createMemoryBridge, type MemoryBridge } from './memory-bridge';
import { mountApp } from './mount-app';

let bridge: MemoryBridge;
beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 3 });
  provideBridge(bridge);
});
const methods = () => bridge.calls.map((c) => c.method);

describe('the connectivity check at start', () => {
  // First: the first screen is not shown yet on this page.
  it('unconfigured (the settings open): asked at once, before any first screen', async () => {
    bridge.settings = { ...bridge.settings, serviceUrl: null, apiKeySet: false };
    const wrapper = mountApp();
    await flushPromises();
    expect(methods()).toContain('connectivity.check');
    expect(methods()).not.toContain('app.firstScreenShown');
    wrapper.unmount();
  });

  it('configured: asked once the first screen is up; the badge says "Checking…" until then', async () => {
    const wrapper = mountApp();
    await flushPromises();
    const label = () => wrapper.find('[data-test="connectivity-label"]').text();
    expect(methods()).toContain('catalog.search');
    expect(methods()).not.toContain('connectivity.check');
    expect(label()).toBe('Checking…');

    markResultsShown();
    await flushPromises();
    expect(methods().indexOf('connectivity.check')).toBeGreaterThan(
      methods().indexOf('app.firstScreenShown'),
    );
    expect(methods().indexOf('app.firstScreenShown')).toBeGreaterThan(-1);
    expect(label()).toBe('Online');
    wrapper.unmount();
  });
});
