/**
 * Saved archive searches offline (issue 15), in headless Chromium: a user saves an archive
 * search on the Archive screen, syncs, the service is stopped, and the screen lists the kept
 * scenes with their thumbnails decoded (pixels not blank), read from the mirror; axe-core finds
 * no serious or critical violation there (light and dark) and nothing scrolls sideways at
 * 1024 x 700. Screenshots in test-output/e2e/archive/.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { runAxe, screenLayout } from '../a11y-checks';
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
/** The newest scenes of the search, as the service lists them (what the screen must show). */
let expectedIds: string[] = [];

const SCENES_KEPT = 5;

beforeAll(async () => {
  shotDir = freshScreenshotDir('archive');
  serviceDir = tempDir('eo-e2e-archive-service-');
  appDir = tempDir('eo-e2e-archive-app-');
  service = await startReferenceService({ dataDir: serviceDir });
  const apiKey = seedService(service, { scenes: 200 });
  const res = await service.server.app.inject({
    method: 'POST',
    url: '/v0/search',
    headers: { authorization: apiKey },
    payload: {
      satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
      limit: SCENES_KEPT,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  expectedIds = (res.json() as { items: { features: Array<{ id: string }> } }).items.features.map(
    (f) => f.id,
  );
  expect(expectedIds).toHaveLength(SCENES_KEPT);
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

interface PixelStats {
  readonly spread: number;
  readonly opaque: number;
}
// Built from text: this side has no DOM types; Playwright sends the function's source. The
// luma spread of a picture drawn at 64 px: ~0 for a blank, flat or transparent one.
const PIXEL_STATS = new Function(
  'el',
  `
  const c = document.createElement('canvas');
  c.width = 64; c.height = 64;
  const ctx = c.getContext('2d');
  ctx.drawImage(el, 0, 0, 64, 64);
  const d = ctx.getImageData(0, 0, 64, 64).data;
  let n = 0, sum = 0, sq = 0, opaque = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    opaque++;
    const y = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
    n++; sum += y; sq += y * y;
  }
  const mean = n ? sum / n : 0;
  return { spread: n ? Math.sqrt(sq / n - mean * mean) : 0, opaque: opaque / (64 * 64) };
`,
) as (el: unknown) => PixelStats;

describe('saved archive searches offline in Chromium', () => {
  it('saves an archive search on the Archive screen', async () => {
    await page.locator('header [data-screen="archive"]').click();
    await page.getByRole('heading', { name: 'Archive', exact: true, level: 1 }).waitFor();
    const form = page.locator('[data-test="archive-form"]');
    await form.getByLabel('Name').fill('Aurora-1, newest');
    await form.getByLabel('Satellite').fill('sat-aurora-1');
    await form.getByLabel('Collection').fill('col-aurora-l2a');
    await form.getByLabel('Area').selectOption('anywhere');
    await form.getByLabel('Scenes kept').fill(String(SCENES_KEPT));
    await form.getByRole('button', { name: 'Save search' }).click();
    const row = page.locator('[data-test="archive-search"]');
    await eventually(() => row.textContent()).toContain('not synced yet');
    expect(await row.textContent()).toContain('Aurora-1, newest');
    await shot('01-saved');
  });

  it('syncs: the search keeps its scenes and their thumbnails', async () => {
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.locator('[data-test="progress"]').waitFor({ state: 'detached', timeout: 50_000 });
    await page.locator('header [data-screen="archive"]').click();
    await eventually(() => page.locator('[data-test="archive-search"]').textContent()).toContain(
      `${SCENES_KEPT} scenes kept`,
    );
  });

  it('offline: the Archive screen lists the scenes with decoded thumbnails', async () => {
    await service.close();
    serviceStopped = true;
    // Another screen and back: the list is read again, from the mirror only.
    await page.locator('header [data-screen="orders"]').click();
    await page.locator('header [data-screen="archive"]').click();
    const scenes = page.locator('[data-test="archive-scene"]');
    await eventually(() => scenes.count()).toBe(SCENES_KEPT);
    const ids = await scenes.locator('.scene__id').allTextContents();
    expect(ids.map((t) => t.trim())).toEqual(expectedIds);
    const shown = page.locator(
      '[data-test="archive-scene"] [data-test="thumb"][data-state="shown"] img',
    );
    await eventually(() => shown.count(), 20_000).toBe(SCENES_KEPT);
    for (let i = 0; i < SCENES_KEPT; i++) {
      const stats = await shown.nth(i).evaluate(PIXEL_STATS);
      expect(stats.opaque).toBeGreaterThan(0.9);
      expect(stats.spread).toBeGreaterThan(3);
    }
    expect(await scenes.first().textContent()).toMatch(/% cloud · sat-aurora-1/);
    await shot('02-offline-scenes-with-thumbnails');
  });

  it('axe-core finds no serious or critical violation; nothing scrolls sideways at 1024 x 700', async () => {
    // Evaluated, not a <script>: the app's Content-Security-Policy allows no inline script.
    await page.evaluate(
      fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8'),
    );
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await runAxe(page), scheme).toEqual([]);
    }
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect((await screenLayout(page)).overflow).toBe(0);
    await shot('03-archive-1024');
  });
});
