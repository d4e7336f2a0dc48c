/**
 * "Export as GeoTIFF" in the offline imagery panel: the window or the chosen index asked of the
 * backend (`rasters.export`, whose files GDAL judges in src/backend/__tests__/raster-export.spec.ts),
 * then downloaded from the export route (browser mode) or said saved where main put it
 * (Electron), cancelled, or refused with the reason.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import RasterExport from '../RasterExport.vue';
import { provideRasterExportUrl } from '../raster-url';
import { useRastersStore } from '../rasters-store';
import { rasterInfo, storedRaster } from './stored-rasters';

let bridge: MemoryBridge;
let clicked: { href: string; download: string }[];

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge();
  provideBridge(bridge);
  provideRasterExportUrl((id) => `http://127.0.0.1:9/api/raster-exports/${id}?token=t`);
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push({ href: this.href, download: this.download });
  });
  const rasters = useRastersStore();
  rasters.rasters = [storedRaster('r-1')];
  rasters.openId = 'r-1';
  rasters.info = rasterInfo();
});
afterEach(() => {
  provideRasterExportUrl(null);
  vi.restoreAllMocks();
});

const exports = () => bridge.calls.filter((c) => c.method === 'rasters.export').map((c) => c.input);

describe('Export as GeoTIFF', () => {
  it('browser mode: the window is asked of the backend and downloaded from the export route', async () => {
    const w = mount(RasterExport);
    await w.get('[data-test="raster-export-window"]').trigger('click');
    await flushPromises();
    expect(exports()).toEqual([{ id: 'r-1', what: 'window' }]);
    expect(clicked).toEqual([
      {
        href: 'http://127.0.0.1:9/api/raster-exports/export-1?token=t',
        download: 'test-site-2024-06-12.tif',
      },
    ]);
    const said = w.get('[data-test="raster-export-outcome"]');
    expect(said.attributes('role')).toBe('status');
    expect(said.text()).toMatch(/^Downloaded test-site-2024-06-12\.tif \(2\.\d MB\)\.$/);
    w.unmount();
  });

  it('the chosen index goes with its expression and the raster bands it reads', async () => {
    const w = mount(RasterExport);
    const button = w.get('[data-test="raster-export-index"]');
    expect(button.text()).toBe('NDVI (float32)');
    await button.trigger('click');
    await flushPromises();
    expect(exports()).toEqual([
      {
        id: 'r-1',
        what: 'index',
        index: { name: 'NDVI', expression: '(NIR - RED) / (NIR + RED)', bandMap: [3, 2] },
      },
    ]);
    expect(clicked[0]!.download).toBe('test-site-2024-06-12-ndvi.tif');
    w.unmount();
  });

  it('Electron: says where main saved it, or that the dialog was cancelled; no download', async () => {
    const w = mount(RasterExport);
    bridge.rasterExportAnswer = () => ({
      fileName: 'field-7-2024-06-12.tif',
      mediaType: 'image/tiff',
      bytes: 5_000_000,
      exportId: 'x',
      savedTo: '/home/f/field-7.tif',
    });
    await w.get('[data-test="raster-export-window"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-test="raster-export-outcome"]').text()).toMatch(
      /^Saved field-7-2024-06-12\.tif \(.* MB\) to \/home\/f\/field-7\.tif\.$/,
    );
    bridge.rasterExportAnswer = () => ({
      fileName: 'a.tif',
      mediaType: 'image/tiff',
      bytes: 1,
      exportId: 'y',
      savedTo: null,
    });
    await w.get('[data-test="raster-export-window"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-test="raster-export-outcome"]').text()).toBe(
      'Not saved: the dialog was cancelled.',
    );
    expect(clicked).toEqual([]);
    w.unmount();
  });

  it('a refusal is said as an alert; an index this raster cannot compute is not offered', async () => {
    const w = mount(RasterExport);
    bridge.failWith(
      'rasters.export',
      new ContractError('invalid_argument', 'no stored offline raster r-1'),
    );
    await w.get('[data-test="raster-export-window"]').trigger('click');
    await flushPromises();
    const said = w.get('[data-test="raster-export-outcome"]');
    expect(said.attributes('role')).toBe('alert');
    expect(said.text()).toMatch(/^Not exported: .*no stored offline raster r-1/);

    const rasters = useRastersStore();
    rasters.rasters = [
      storedRaster('r-1', { bands: [{ name: 'PAN', commonName: null, wavelengthNm: null }] }),
    ];
    await flushPromises();
    expect(w.get('[data-test="raster-export-index"]').attributes('disabled')).toBeDefined();
    w.unmount();
  });
});
