/**
 * The catalog map's tools (issue 18) in headless Chromium: "Near me" with Chromium's
 * geolocation override (permission granted) and as a search area, a rectangle drawn with the
 * mouse with its area live while it is dragged out, a circle of a typed radius, and the filter
 * panel's UTC date rule and presets. Screenshots in test-output/e2e/map-tools/.
 */
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
import { connectAndSync, eventually } from '../page-actions';
import { RENDERER_DIR } from '../renderer-build';

let serviceDir: string;
let appDir: string;
let service: ReferenceService;
let app: BrowserApp;
let browser: Browser;
let page: Page;
let shotDir: string;

/** Geneva, where the device says it is. */
const HERE = { latitude: 46.2044, longitude: 6.1432 };

beforeAll(async () => {
  shotDir = freshScreenshotDir('map-tools');
  serviceDir = tempDir('eo-e2e-tools-service-');
  appDir = tempDir('eo-e2e-tools-app-');
  service = await startReferenceService({ dataDir: serviceDir });
  const apiKey = seedService(service, { scenes: 60, bulkRecords: 60 });
  app = await startBrowserApp({ dataDir: appDir, rendererDir: RENDERER_DIR });
  browser = await launchChromium();
  page = await openPage(browser, { viewport: { width: 1400, height: 900 } });
  await page.context().grantPermissions(['geolocation']);
  await page.context().setGeolocation(HERE);
  await page.goto(app.server.openUrl);
  await connectAndSync(page, service.url, apiKey);
  await page.getByRole('button', { name: 'Catalog', exact: true }).click();
});

afterAll(() => closeJourney([browser, app, service], [serviceDir, appDir]));

const shot = (name: string) =>
  page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage: false });
const inCatalog = (test: string) => page.locator(`.catalog [data-test="${test}"]`);
const mapBox = async () => (await page.locator('.catalog .map-frame__map').boundingBox())!;
const areaText = () => inCatalog('drawn-area').textContent();
const km2Of = (text: string | null) =>
  Number((/Area: ([\d,.]+) km²/.exec(text ?? '')?.[1] ?? '').replace(/,/g, ''));

describe('map tools in Chromium', () => {
  it('shows the device position and searches a circle around it', async () => {
    await inCatalog('near-me').click();
    await eventually(() => inCatalog('near-me-status').textContent()).toMatch(
      /Your position: 46\.2044\d, 6\.1432\d/,
    );
    await inCatalog('draw-radius').fill('5');
    await inCatalog('near-me-area').click();
    // π·25 km² ≈ 78.5 km², searched as the area filter.
    await eventually(async () => km2Of(await areaText())).toBeGreaterThan(78);
    expect(km2Of(await areaText())).toBeLessThan(79);
    await expect
      .poll(() =>
        page.getByLabel('An area drawn on the map (polygon, rectangle or circle)').isChecked(),
      )
      .toBe(true);
    await shot('01-near-me-circle');
  });

  it('draws a rectangle with the mouse, its area live while dragged out', async () => {
    await page.locator('.catalog [data-test="goto-input"]').fill('46.2, 6.15');
    await page.locator('.catalog [data-test="goto-input"]').press('Enter');
    await inCatalog('draw-rectangle').click();
    await eventually(() => inCatalog('draw-hint').textContent()).toMatch(/opposite corner/);
    const box = await mapBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.click(cx - 150, cy - 100);
    await page.mouse.move(cx + 60, cy + 40, { steps: 4 });
    const live = km2Of(await eventually(areaText).toMatch(/km²/).then(areaText));
    await page.mouse.move(cx + 150, cy + 100, { steps: 4 });
    await eventually(async () => km2Of(await areaText())).toBeGreaterThan(live);
    await shot('02-rectangle-live');
    await page.mouse.click(cx + 150, cy + 100);
    await eventually(() => inCatalog('draw-edit-hint').isVisible()).toBe(true);
    await shot('03-rectangle-drawn');
  });

  it('places a circle of the typed radius, and warns on a tiny one', async () => {
    await inCatalog('draw-radius').fill('0.05');
    await inCatalog('draw-circle').click();
    const box = await mapBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await eventually(() => areaText()).toMatch(/Very small .*returns every scene touching it/);
    await shot('04-circle-small');
  });

  it('says the dates are UTC days, with presets', async () => {
    await page.locator('[data-test="date-preset-last30"]').click();
    await eventually(async () =>
      (await page.locator('[data-test="date-rule"]').textContent())?.replace(/\s+/g, ' ').trim(),
    ).toMatch(/^Searches \d{4}-\d\d-\d\d 00:00 to \d{4}-\d\d-\d\d 23:59 UTC\.$/);
    await page.locator('.catalog__side').screenshot({ path: path.join(shotDir, '05-filters.png') });
  });
});
