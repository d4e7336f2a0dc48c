/**
 * The list's pictures wait for the first screen (ui/first-screen.ts): serving and decoding
 * them took the CPU its first frames waited for. Until then a thumbnail is its grey
 * placeholder, never "no preview offline". A file of its own: the first screen is shown once
 * per page, and this page must start without it.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provideBridge } from '../stores/bridge-provider';
import { markResultsShown } from '../ui/first-screen';
import QuicklookThumb from '../ui/QuicklookThumb.vue';
import { browserQuicklookUrl, provideQuicklookUrl } from '../ui/quicklook-source';
import { createMemoryBridge } from './memory-bridge';

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 3 }));
  provideQuicklookUrl(browserQuicklookUrl('t'));
});
afterEach(() => provideQuicklookUrl(null));

describe('QuicklookThumb before the first screen is up', () => {
  it('shows its placeholder, and asks for the picture once the first screen showed its results', async () => {
    const w = mount(QuicklookThumb, { props: { recordId: 'scene-1' } });
    await flushPromises();
    expect(w.find('img').exists()).toBe(false);
    expect(w.find('[data-test="thumb"]').attributes('data-state')).toBe('loading');
    expect(w.text()).not.toContain('no preview');

    markResultsShown();
    await flushPromises();
    expect(w.find('img').attributes('src')).toBe('/api/quicklooks/thumbnail/scene-1?token=t');
    w.unmount();
  });
});
