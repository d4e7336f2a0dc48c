/**
 * End to end, an order priced before it goes offline (issue 17, item 1): browser mode in
 * headless Chromium against the real reference service. The composer's "Preview price" gives
 * the service's price, the order is queued; the service goes away (the header says an order
 * waits for confirmation, nothing is quoted); back, the app quotes it by itself and the review
 * shows its price now beside the price then, "quoted at" its time; "Send 1 order (total X)"
 * sends it at that price. Screenshots in test-output/e2e/order-review/.
 */
import type { Polygon } from '@eo/domain';
import fs from 'node:fs';
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
import { daysAhead, eventually } from '../page-actions';
import { RENDERER_DIR } from '../renderer-build';

const NAME = 'E2E previewed field';
const FIELD: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [11.3, 44.48],
      [11.34, 44.48],
      [11.34, 44.51],
      [11.3, 44.51],
      [11.3, 44.48],
    ],
  ],
};

let serviceDir: string;
let appDir: string;
let shotDir: string;
let service: ReferenceService;
let apiKey: string;
let app: BrowserApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  shotDir = freshScreenshotDir('order-review');
  serviceDir = tempDir('eo-e2e-review-service-');
  appDir = tempDir('eo-e2e-review-app-');
  service = await startReferenceService({ dataDir: serviceDir });
  apiKey = seedService(service, { scenes: 40 });
  // Checks only when asked ("Check now"): no automatic batch races the review.
  app = await startBrowserApp({
    dataDir: appDir,
    rendererDir: RENDERER_DIR,
    connectivityIntervalMs: 600_000,
    connectivityOfflineIntervalMs: 600_000,
  });
  browser = await launchChromium();
  page = await openPage(browser);
});

afterAll(() => closeJourney([browser, app, service], [serviceDir, appDir]));

const shot = (name: string) => page.screenshot({ path: path.join(shotDir, `${name}.png`) });
const tab = (screen: string) => page.locator(`header [data-screen="${screen}"]`).click();
const indicator = () => page.locator('header [data-test="connectivity-label"]');
const notice = () => page.locator('header [data-test="orders-review-notice"]');
const item = () => page.locator('[data-test="composer-item-0"]');

/** "Check now" on the Sync screen, until the header says `state`. */
async function checkNow(state: string): Promise<void> {
  await tab('sync');
  await page.locator('.sync').getByRole('button', { name: 'Check now' }).click();
  await eventually(() => indicator().textContent()).toBe(state);
}

describe('an order previewed online, queued, and confirmed after the service was away', () => {
  let previewTotal = '';

  it('previews the price online and queues the order', async () => {
    const saved = await app.backend.dispatch('settings.update', {
      serviceUrl: service.url,
      apiKey,
    });
    expect(saved.ok).toBe(true);
    await page.goto(app.server.openUrl);
    await eventually(() => indicator().textContent()).toBe('Online');

    await tab('orders');
    await page.locator('[data-test="new-order"]').click();
    await item().locator('[data-test="field-name"]').fill(NAME);
    await item().locator('[data-test="field-project"]').fill('prj-demo-crops');
    await item().locator('[data-test="field-start"]').fill(daysAhead(7));
    await item().locator('[data-test="field-end"]').fill(daysAhead(37));
    const file = path.join(appDir, 'field.geojson');
    fs.writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: FIELD }],
      }),
    );
    await item().locator('[data-test="import-file"]').setInputFiles(file);
    // The file is read by the backend: its area is the item's only once the form says so.
    await eventually(() => item().locator('[data-test="geometry-state"]').textContent()).toContain(
      '1 feature · field.geojson',
    );
    await page.locator('[data-test="preview-price"]').click();
    previewTotal = (await page.locator('[data-test="quote-total"]').textContent())!.trim();
    expect(previewTotal).toMatch(/^[\d,]+\.\d\d credits$/);
    expect(await page.locator('[data-test="quote-time"]').textContent()).toMatch(/^\s*Quoted at /);
    await shot('01-preview');
    await page.locator('[data-test="queue-order"]').click();
    await eventually(() => page.locator('[data-test="queued-message"]').textContent()).toContain(
      'Order (1 item) is queued',
    );
  });

  it('offline: the header says an order waits for confirmation; nothing is quoted or sent', async () => {
    await service.close();
    await checkNow('Offline');
    await eventually(() => notice().textContent()).toBe('1 order to confirm');
    await notice().click();
    expect(await page.locator('[data-test="review-status"]').textContent()).toContain(
      'They are quoted when the service is reachable',
    );
    expect(await page.locator('[data-test="send-orders"]').isDisabled()).toBe(true);
    await shot('02-offline-waiting');
  });

  it('back online: quoted by itself, the price then beside the price now; sent at that price', async () => {
    service = await startReferenceService({ dataDir: serviceDir, port: service.port });
    await checkNow('Online');
    await eventually(() => notice().textContent()).toBe('Confirm 1 order');
    await notice().click();
    const row = page.locator('[data-test="review-order"]');
    await eventually(() => row.locator('[data-test="review-price"]').textContent()).toBe(
      previewTotal,
    );
    const change = (await row.locator('[data-test="review-change"]').textContent())!;
    expect(change).toContain(`Unchanged since it was queued (${previewTotal}, quoted at `);
    const send = page.locator('[data-test="send-orders"]');
    expect((await send.textContent())!.trim()).toBe(`Send 1 order (total ${previewTotal})`);
    await shot('03-review');

    const orders = () =>
      service.server.app.ctx.sqlite.prepare('SELECT count(*) FROM orders').pluck().get();
    expect(orders()).toBe(0);
    await send.click();
    const note = page.locator('[data-test="batch-notification"]');
    await note.waitFor({ timeout: 20_000 });
    expect(await note.locator('[data-test="notification-created"]').textContent()).toBe(
      '1 created.',
    );
    expect(orders()).toBe(1);
    const total = service.server.app.ctx.sqlite
      .prepare('SELECT total_amount FROM orders')
      .pluck()
      .get() as number;
    expect(Number(previewTotal.replace(/[^\d.]/g, ''))).toBeCloseTo(total, 2);
    await notice().waitFor({ state: 'detached' });
    await shot('04-sent');
  });
});
