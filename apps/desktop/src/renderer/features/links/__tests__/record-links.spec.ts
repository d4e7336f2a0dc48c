/**
 * Record links in the app, in happy-dom over the memory bridge: `#/link/…` and Electron's
 * `link.opened` event open the scene, the AOI, the order or the search from the mirror; a record
 * this mirror does not hold, and a damaged link, are said; "Copy link" copies the link the other
 * laptop opens.
 */
import { buildAoi, buildOrder } from '@eo/domain/testing';
import { formatRecordLink, parseRecordLink } from '@eo/domain';
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { mountApp } from '../../../__tests__/mount-app';
import { provideBridge } from '../../../stores/bridge-provider';
import { linkFromRoute, linkLocation } from '../links-store';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 5 });
  bridge.work.aois = [buildAoi({ aoi_id: 'aoi-7', name: 'Maize north' })];
  bridge.work.orders = [buildOrder({ id: 'ord-3' })];
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  vi.restoreAllMocks();
});

const address = () => (wrapper!.vm as unknown as { $route: { fullPath: string } }).$route.fullPath;
const notice = () => wrapper!.find('[data-test="link-notice"]');

describe('record links', () => {
  it('round-trips every kind through its route', () => {
    for (const raw of [
      'eo-field-desk://scene/S2A_1',
      'eo-field-desk://aoi/aoi-7',
      'eo-field-desk://search?name=North%20fields&q=' +
        encodeURIComponent('{"bbox":[4,43,5,44],"query":{"eo:cloud_cover":{"lt":20}}}'),
    ]) {
      const read = parseRecordLink(raw);
      if (!read.ok) throw new Error(read.reason);
      const location = linkLocation(read.link) as { path: string; query?: Record<string, string> };
      const [, , kind, id] = location.path.split('/');
      const back = linkFromRoute({
        params: { kind, id: id === undefined ? undefined : decodeURIComponent(id) },
        query: location.query ?? {},
      });
      expect(back).toEqual(read);
    }
  });

  it('opens a scene from the mirror in the catalog’s details, the address then the catalog', async () => {
    const id = bridge.records[2]!.id;
    wrapper = mountApp(`/link/scene/${encodeURIComponent(id)}`);
    await flushPromises();
    expect(address()).toBe('/catalog');
    expect(wrapper.find('[data-test="detail"]').text()).toContain(id);
    expect(notice().exists()).toBe(false);
  });

  it('says a scene, an AOI or an order this mirror does not hold, and how to get it', async () => {
    wrapper = mountApp('/link/scene/S2B_not_here');
    await flushPromises();
    expect(notice().attributes('role')).toBe('alert');
    expect(notice().text()).toContain(
      'Scene S2B_not_here is not in this mirror: sync, or open a field package that holds it',
    );
    expect(wrapper.find('[data-test="detail"]').exists()).toBe(false);
    bridge.emit('link.opened', { kind: 'order', id: 'ord-gone' });
    await flushPromises();
    expect(address()).toBe('/orders');
    expect(notice().text()).toContain('Order ord-gone is not in this mirror');
    await notice().find('button').trigger('click');
    expect(notice().exists()).toBe(false);
  });

  it('opens an AOI and an order that Electron handed over as link.opened', async () => {
    wrapper = mountApp();
    await flushPromises();
    bridge.emit('link.opened', { kind: 'aoi', id: 'aoi-7' });
    await flushPromises();
    expect(address()).toBe('/aois');
    expect(wrapper.find('#aoi-title').text()).toBe('Maize north');
    bridge.emit('link.opened', { kind: 'order', id: 'ord-3' });
    await flushPromises();
    expect(address()).toBe('/orders');
    expect(wrapper.find('[data-test="order-details"]').exists()).toBe(true);
  });

  it('sets a search’s filters from its link and runs it', async () => {
    const link = formatRecordLink({
      kind: 'search',
      name: 'North fields',
      query: { bbox: [4, 43, 5, 44], limit: 50, offset: 0 },
    });
    wrapper = mountApp(`/link/search${link.slice(link.indexOf('?'))}`);
    await flushPromises();
    expect(address()).toBe('/catalog');
    const searches = bridge.calls.filter((c) => c.method === 'catalog.search');
    expect(searches.at(-1)?.input).toMatchObject({ bbox: [4, 43, 5, 44] });
    expect(notice().attributes('role')).toBe('status');
    expect(notice().text()).toContain('Search “North fields” from a link');
  });

  it('refuses a damaged link with its reason, and opens nothing', async () => {
    wrapper = mountApp('/link/scene/..%2F..%2Fetc');
    await flushPromises();
    expect(address()).toBe('/catalog');
    expect(notice().text()).toMatch(
      /^This link cannot be opened: id: not a record id\.\s*Dismiss$/,
    );
    expect(bridge.calls.some((c) => c.method === 'catalog.get')).toBe(false);
  });

  it('copies the record’s link from its details; says so, or shows it to copy by hand', async () => {
    const writeText = vi.fn(async (_: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    wrapper = mountApp('/aois');
    await flushPromises();
    bridge.emit('link.opened', { kind: 'aoi', id: 'aoi-7' });
    await flushPromises();
    await wrapper.find('[data-test="aoi-details"] [data-test="copy-link"]').trigger('click');
    await flushPromises();
    expect(writeText).toHaveBeenCalledWith('eo-field-desk://aoi/aoi-7');
    expect(wrapper.find('[data-test="aoi-details"] [role="status"]').text()).toBe('Link copied');

    writeText.mockRejectedValueOnce(new Error('denied'));
    await wrapper.find('[data-test="aoi-details"] [data-test="copy-link"]').trigger('click');
    await flushPromises();
    const field = wrapper.find<HTMLInputElement>('[data-test="link-text"]');
    expect(field.element.value).toBe('eo-field-desk://aoi/aoi-7');
  });
});
