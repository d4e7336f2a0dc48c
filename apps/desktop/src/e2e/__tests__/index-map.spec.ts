/**
 * Index maps of AOIs offline (issue 15), in headless Chromium: an AOI and an NDVI visualization
 * made in the app (through its outbox, the service's worker run by the test), a sync keeps the
 * visualization's index PNGs, the service is stopped, and the AOIs screen draws the index map
 * over the AOI with its legend: the screenshot has coloured pixels inside the AOI, which go
 * when the overlay is switched off. Screenshots in test-output/e2e/index-map/.
 */
import type { Polygon } from '@eo/domain';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insideOf } from '../footprints';
import {
  type BrowserApp,
  closeJourney,
  freshScreenshotDir,
  launchChromium,
  openPage,
  type ReferenceService,
  seedService,
  startBrowserApp,
  startReferenceService,
  tempDir,
} from '../harness';
import { eventually } from '../page-actions';
import { RENDERER_DIR } from '../renderer-build';

let serviceDir: string;
let appDir: string;
let service: ReferenceService;
let app: BrowserApp;
let browser: Browser;
let page: Page;
let shotDir: string;
let serviceStopped = false;
/** An aurora-1 scene with a catalog record, and its footprint (the AOI lies inside it). */
let scene: { id: string; footprint: Polygon };

/** One call to the app's backend (what the page's bridge sends), its value or a thrown error. */
async function call(method: string, input?: unknown): Promise<unknown> {
  const r = await app.backend.dispatch(method, input);
  if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.value;
}

beforeAll(async () => {
  shotDir = freshScreenshotDir('index-map');
  serviceDir = tempDir('eo-e2e-index-map-service-');
  appDir = tempDir('eo-e2e-index-map-app-');
  service = await startReferenceService({ dataDir: serviceDir });
  const apiKey = seedService(service, { scenes: 200 });
  const row = service.server.app.ctx.sqlite
    // A scene with a catalog record: the sync keeps its thumbnail, shown beside the AOI's asset.
    .prepare(
      `SELECT s.id, s.feature_json AS f FROM archive_scenes s
       WHERE s.satellite_id = 'sat-aurora-1'
         AND EXISTS (SELECT 1 FROM catalog_records c WHERE c.item_id = s.id)`,
    )
    .get() as { id: string; f: string };
  scene = { id: row.id, footprint: (JSON.parse(row.f) as { geometry: Polygon }).geometry };
  app = await startBrowserApp({
    dataDir: appDir,
    rendererDir: RENDERER_DIR,
    imagery: 'thumbnails',
  });
  browser = await launchChromium();
  page = await openPage(browser, { viewport: { width: 1400, height: 900 } });
  await page.goto(app.server.openUrl);
  await page.getByLabel('Service URL').fill(service.url);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Save' }).click();
});

afterAll(() =>
  closeJourney([browser, app, serviceStopped ? undefined : service], [serviceDir, appDir]),
);

const shot = (name: string) =>
  page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage: false });

/**
 * Share of clearly coloured pixels (max - min channel > 60) in the middle half of `box` of a
 * page screenshot, read back in the page (a data: image is readable from a canvas).
 */
async function colouredShare(
  png: Buffer,
  box: { x: number; y: number; width: number; height: number },
) {
  const fn = new Function(
    'a',
    `return (async () => {
      const img = new Image();
      img.src = 'data:image/png;base64,' + a.b64;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth; c.height = img.naturalHeight;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const s = img.naturalWidth / a.vw;
      const x = Math.round((a.x + a.w / 4) * s), y = Math.round((a.y + a.h / 4) * s);
      const w = Math.max(1, Math.round((a.w / 2) * s)), h = Math.max(1, Math.round((a.h / 2) * s));
      const d = ctx.getImageData(x, y, w, h).data;
      let n = 0, coloured = 0;
      for (let i = 0; i < d.length; i += 4) {
        n++;
        if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60) coloured++;
      }
      return coloured / n;
    })()`,
  ) as (a: unknown) => Promise<number>;
  return page.evaluate(fn, {
    b64: png.toString('base64'),
    vw: page.viewportSize()!.width,
    x: box.x,
    y: box.y,
    w: box.width,
    h: box.height,
  });
}

describe('index maps of AOIs offline in Chromium', () => {
  it('a sync keeps the index maps of a visualization made in the app', async () => {
    await eventually(() =>
      page.locator('header [data-test="connectivity-label"]').textContent(),
    ).toBe('Online');

    // The AOI and its visualization, made in the app and sent; the service's worker completes them.
    const aoi = (await call('outbox.enqueue', {
      kind: 'aoi',
      input: {
        name: 'Index-mapped field',
        description: 'Maize',
        satellite_id: 'sat-aurora-1',
        provider: 'aurora-archive',
        project_id: 'prj-demo-crops',
        geometry: insideOf(insideOf(scene.footprint)),
        item_ids: [scene.id],
      },
    })) as { id: string };
    await call('outbox.enqueue', {
      kind: 'visualization',
      input: {
        aoi_id: `local:${aoi.id}`,
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [`local:${aoi.id}#scenes`],
      },
    });
    expect(await call('outbox.flush')).toMatchObject({ sent: 2, failed: 0 });
    service.server.app.ctx.worker.drain();
    await call('created.refresh');

    await page.locator('header [data-screen="sync"]').click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.locator('[data-test="progress"]').waitFor({ state: 'detached', timeout: 50_000 });
    const counts = page.locator('[data-test="imagery-counts"]');
    await eventually(() => counts.textContent()).toMatch(/[1-9]\d* index maps?/);
    await shot('01-synced-with-index-maps');
  });

  it('offline: the AOIs map draws the index map inside the AOI, with its legend', async () => {
    await service.close();
    serviceStopped = true;
    await page.locator('header [data-screen="aois"]').click();
    await page.locator('[data-test^="aoi-row-"]', { hasText: 'Index-mapped field' }).click();
    // Its scene asset shows the scene's thumbnail from the mirror, offline.
    const thumb = page.locator(
      '[data-test="scene-thumbs"] [data-test="thumb"][data-state="shown"] img',
    );
    await eventually(() => thumb.count()).toBeGreaterThan(0);
    await eventually(() =>
      thumb.first().evaluate((img) => (img as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    const legend = page.locator('[data-test="index-map-legend"]');
    await eventually(() => legend.textContent()).toMatch(/NDVI.*\d{4}-\d{2}-\d{2}/s);
    expect(await legend.locator('[data-test="legend-min"]').textContent()).toBe('-1');
    expect(await legend.locator('[data-test="legend-max"]').textContent()).toBe('1');
    const overlay = page.locator('[data-test="map-image-overlay"]');
    await eventually(() =>
      overlay.evaluate((img) => (img as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    const box = (await overlay.boundingBox())!;
    expect(box.width).toBeGreaterThan(40);
    const on = await page.screenshot({ path: path.join(shotDir, '02-offline-index-map.png') });
    const shown = await colouredShare(on, box);
    expect(shown).toBeGreaterThan(0.5);

    await page.locator('[data-test="index-map-toggle"]').uncheck();
    await eventually(() => overlay.count()).toBe(0);
    const off = await page.screenshot({ path: path.join(shotDir, '03-index-map-off.png') });
    expect(await colouredShare(off, box)).toBeLessThan(shown / 2);
    await page.locator('[data-test="index-map-toggle"]').check();
    await eventually(() => overlay.count()).toBe(1);
  });
});
