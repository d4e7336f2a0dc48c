/**
 * The index export off the event loop (raster-index-in-worker.ts): the index file is written
 * while this thread is held in a synchronous loop (so its compute cannot be on this event
 * loop), GDAL reads it back; a window past the pixel limit, a hostile stored file (garbage after
 * a TIFF signature) and a truncated one are refused with their reason as `invalid_argument`,
 * and leave no file behind.
 */
import { gdalLocationValues } from '@eo/geotiff/testing';
import { lonLatToMap } from '@eo/geotiff';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfflineRasterView } from '../../shared/contract';
import { indexOfPixel, kernelOf } from '../../shared/raster-index';
import { makeRasterExports } from '../raster-export';
import { writeIndexInWorker } from '../raster-index-in-worker';
import { tempDir } from './harness';
import { writeSiteWindow, type SiteWindow } from './site-window';

const NDVI = { name: 'NDVI', expression: '(NIR - RED) / (NIR + RED)', bandMap: [3, 2] };
const SCALES = Array.from({ length: 4 }, () => ({ scale: 0.0001, offset: 0 }));
/** Longest this thread is held while the worker writes (it loads from sources under tsx). */
const HOLD_MS = 90_000;

let dir: string;
let site: SiteWindow;

beforeAll(async () => {
  dir = tempDir('eo-raster-index-');
  site = await writeSiteWindow(path.join(dir, 'site.tif'), { width: 1024, height: 1024 });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** Offline rasters answering one stored file, as `rasters.list`/`stored` would. */
function storedOnly(file: string) {
  const view = {
    id: 'r-1',
    state: 'stored',
    areaLabel: 'Field 7',
    raster: { datetime: '2024-06-12T10:31:05Z' },
  } as unknown as OfflineRasterView;
  return {
    list: () => Promise.resolve({ rasters: [view] }) as never,
    stored: () => Promise.resolve({ file, size: sizeOf(file) }),
  };
}

describe('the index export, in a worker thread', () => {
  it('writes the index while this event loop is held, and GDAL reads the app values', async () => {
    const target = path.join(dir, 'held.tif');
    const written = writeIndexInWorker({
      source: site.file,
      target,
      index: NDVI,
      maxPixels: 1 << 28,
    });
    // Held synchronously: nothing of this thread's event loop runs until the loop ends.
    const deadline = Date.now() + HOLD_MS;
    while (sizeOf(target) < 64 * 1024 && Date.now() < deadline);
    const heldSize = sizeOf(target);
    expect(
      heldSize,
      `the worker wrote no tile within ${HOLD_MS / 1000} s while this thread was held`,
    ).toBeGreaterThanOrEqual(64 * 1024);
    const bytes = await written;
    expect(bytes).toBe(sizeOf(target));

    const [col, row] = site.places.vegetation;
    const [x, y] = lonLatToMap(site.epsg, ...site.lonLatOf(col, row));
    const [[value]] = (await gdalLocationValues(target, [[x, y]])) as [[number]];
    const app = indexOfPixel(kernelOf(NDVI.expression), site.valuesAt(col, row), [3, 2], SCALES, 0);
    expect(value).toBeCloseTo(app[0]!, 6);
  });

  it('refuses a window past the pixel limit, with the sizes, and leaves no file', async () => {
    const exportDir = tempDir('eo-raster-index-limit-');
    const exports = makeRasterExports(storedOnly(site.file), {
      tmpDir: exportDir,
      maxIndexPixels: 1_000_000,
    });
    await expect(exports.export({ id: 'r-1', what: 'index', index: NDVI })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(
        /1024 x 1024 pixels; an index is exported for at most 1,000,000 pixels/,
      ),
    });
    const left = fs.readdirSync(exportDir).flatMap((d) => fs.readdirSync(path.join(exportDir, d)));
    expect(left).toEqual([]);
    exports.close();
    fs.rmSync(exportDir, { recursive: true, force: true });
  });

  it('refuses a hostile and a truncated stored file with the reason', async () => {
    const hostile = path.join(dir, 'hostile.tif');
    // A TIFF signature, then an IFD offset far past the end and garbage.
    const garbage = Buffer.alloc(4096, 0xa5);
    garbage.write('II*\0', 0, 'latin1');
    garbage.writeUInt32LE(0x7fff_fff0, 4);
    fs.writeFileSync(hostile, garbage);
    const truncated = path.join(dir, 'truncated.tif');
    fs.writeFileSync(truncated, fs.readFileSync(site.file).subarray(0, Math.floor(site.bytes / 2)));
    for (const file of [hostile, truncated]) {
      const exportDir = tempDir('eo-raster-index-bad-');
      const exports = makeRasterExports(storedOnly(file), { tmpDir: exportDir });
      await expect(exports.export({ id: 'r-1', what: 'index', index: NDVI })).rejects.toMatchObject(
        {
          code: 'invalid_argument',
          message: expect.stringMatching(/^the stored raster cannot be read: /),
        },
      );
      const left = fs
        .readdirSync(exportDir)
        .flatMap((d) => fs.readdirSync(path.join(exportDir, d)));
      expect(left).toEqual([]);
      exports.close();
      fs.rmSync(exportDir, { recursive: true, force: true });
    }
  });
});
