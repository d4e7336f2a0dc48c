/**
 * Several dates of one site: the date slider over the overlapping offline rasters (oldest
 * first), each date opened in the raster worker with the view kept, and the compare swipe's
 * second date opened beside the first and closed when it goes.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import SiteDates from '../SiteDates.vue';
import { provideRasterClient, type RasterClient } from '../raster-client';
import { provideRasterUrl } from '../raster-url';
import { useRastersStore } from '../rasters-store';
import { rasterInfo, storedRaster } from './stored-rasters';

let opened: string[];
let closed: string[];

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge());
  provideRasterUrl((id) => `eo-raster://file/${id}`);
  opened = [];
  closed = [];
  const client: Partial<RasterClient> = {
    open: async (id) => (opened.push(id), rasterInfo()),
    close: (id) => void closed.push(id),
    bandStats: async () =>
      Array.from({ length: 4 }, () => ({ low: 100, high: 3000, min: 1, max: 5000 })),
  };
  provideRasterClient(client as RasterClient);
  const rasters = useRastersStore();
  rasters.rasters = [
    // Listed newest first, as rasters.list does; another site far away.
    storedRaster('july', { datetime: '2024-07-20T10:30:00Z', bounds: [6.64, 46.5, 6.78, 46.6] }),
    storedRaster('june', { datetime: '2024-06-12T10:31:05Z' }),
    storedRaster('elsewhere', { datetime: '2024-06-30T10:00:00Z', bounds: [8, 47, 8.1, 47.1] }),
    storedRaster('may', { datetime: '2024-05-03T10:29:00Z', bounds: [6.62, 46.49, 6.76, 46.59] }),
  ];
});
afterEach(() => {
  provideRasterClient(null);
  provideRasterUrl(null);
});

describe('the dates of a site', () => {
  it('slides over the site’s dates, oldest first, the view kept', async () => {
    const rasters = useRastersStore();
    await rasters.show('june');
    const fits = rasters.fitSeq;
    const w = mount(SiteDates);
    const slider = w.get('[data-test="site-date-slider"]');
    expect(slider.attributes('max')).toBe('2');
    expect((slider.element as HTMLInputElement).value).toBe('1');
    expect(slider.attributes('aria-valuetext')).toBe('2024-06-12, 2 of 3');
    expect(w.text()).toMatch(/2024-05-03\s*2024-07-20/);
    await slider.setValue('2');
    await flushPromises();
    expect(rasters.openId).toBe('july');
    expect(rasters.fitSeq).toBe(fits);
    expect(closed).toContain('june');
    expect(w.get('[data-test="site-date"]').text()).toBe('2024-07-20');
    await slider.setValue('0');
    await flushPromises();
    expect(rasters.openId).toBe('may');
    expect(opened).toEqual(['june', 'july', 'may']);
    w.unmount();
  });

  it('compares another date at full resolution, opened beside the first, closed when done', async () => {
    const rasters = useRastersStore();
    await rasters.show('june');
    const w = mount(SiteDates);
    const select = w.get('[data-test="site-compare"]');
    expect(select.findAll('option').map((o) => o.text())).toEqual([
      'No comparison',
      '2024-05-03 · native',
      '2024-07-20 · native',
    ]);
    await select.setValue('july');
    await flushPromises();
    expect(rasters.compareId).toBe('july');
    expect(rasters.compareRaster?.id).toBe('july');
    expect(opened).toEqual(['june', 'july']);
    // Another date on the left keeps the right one open.
    await w.get('[data-test="site-date-slider"]').setValue('0');
    await flushPromises();
    expect(rasters.openId).toBe('may');
    expect(closed).toEqual(['june']);
    expect(rasters.compareId).toBe('july');
    // The left slides onto the right one's date: nothing left to compare.
    await w.get('[data-test="site-date-slider"]').setValue('2');
    await flushPromises();
    expect(rasters.openId).toBe('july');
    expect(rasters.compareId).toBe(null);
    expect(closed).toEqual(['june', 'may']);
    await select.setValue('june');
    await flushPromises();
    await select.setValue('');
    expect(rasters.compareId).toBe(null);
    expect(closed).toEqual(['june', 'may', 'june']);
    w.unmount();
  });

  it('a compare chosen while the left date still opens keeps both open in the worker', async () => {
    // The worker as it is: messages handled in the order sent (an open makes the raster open,
    // a later close closes it), the open's answer arriving when the test says.
    const inWorker = new Set<string>();
    const pending: { id: string; go: () => void }[] = [];
    const answer = async (id: string) => {
      const p = pending.findIndex((o) => o.id === id);
      expect(p, `an open of ${id} is waiting`).toBeGreaterThanOrEqual(0);
      pending.splice(p, 1)[0]!.go();
      await flushPromises();
    };
    provideRasterClient({
      open: (id) => {
        inWorker.add(id);
        return new Promise((resolve) => pending.push({ id, go: () => resolve(rasterInfo()) }));
      },
      close: (id) => void inWorker.delete(id),
      bandStats: async () =>
        Array.from({ length: 4 }, () => ({ low: 100, high: 3000, min: 1, max: 5000 })),
    } as Partial<RasterClient> as RasterClient);
    const rasters = useRastersStore();
    const first = rasters.show('july', false);
    await answer('july');
    await first;
    // Back to June (still opening) and, at once, July on the right.
    const back = rasters.show('june', false);
    const compare = rasters.compareWith('july');
    await answer('june'); // June opened first: July, the date before, is being compared
    await answer('july');
    await Promise.all([back, compare]);
    expect([rasters.openId, rasters.compareId]).toEqual(['june', 'july']);
    expect([...inWorker].sort()).toEqual(['july', 'june']);
    // The other order: the compare's open answered before the left date's.
    rasters.stopCompare();
    expect([...inWorker]).toEqual(['june']);
    const may = rasters.show('may', false);
    const again = rasters.compareWith('june');
    await answer('june');
    await answer('may');
    await Promise.all([may, again]);
    expect([rasters.openId, rasters.compareId]).toEqual(['may', 'june']);
    expect([...inWorker].sort()).toEqual(['june', 'may']);
    // A date chosen while another still opens: only the last one stays.
    const a = rasters.show('july', false);
    const b = rasters.show('june', false);
    await answer('july');
    await answer('june');
    await Promise.all([a, b]);
    expect(rasters.openId).toBe('june');
    expect([...inWorker].sort()).toEqual(['june']);
    expect(rasters.compareId).toBe(null);
  });

  it('shows nothing for a site of one date; a raster that cannot open is said', async () => {
    const rasters = useRastersStore();
    await rasters.show('elsewhere');
    const w = mount(SiteDates);
    expect(w.find('[data-test="site-dates"]').exists()).toBe(false);
    await rasters.show('june');
    await flushPromises();
    provideRasterUrl(null);
    await w.get('[data-test="site-compare"]').setValue('may');
    await flushPromises();
    expect(w.get('[data-test="site-compare-error"]').attributes('role')).toBe('alert');
    expect(rasters.compareId).toBe(null);
    w.unmount();
  });
});
