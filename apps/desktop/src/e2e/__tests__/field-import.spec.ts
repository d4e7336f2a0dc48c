/**
 * End to end, issue 16's desktop import: browser mode (the built renderer in headless Chromium,
 * no service: the outbox queues offline) and a KMZ as Google Earth gives it, built here with
 * @eo/formats' writer: two fields and a well (a point). The AOI form's "Import a file…" sends
 * it to the backend, the preview lists the fields and refuses the well, and "Queue 2 AOIs"
 * puts one AOI per field in the outbox, named after it. Screenshots land in
 * test-output/e2e/field-import/.
 */
import { exportFeatures } from '@eo/formats';
import { square } from '@eo/formats/testing';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserApp,
  closeJourney,
  freshScreenshotDir,
  launchChromium,
  listOutbox,
  openPage,
  startBrowserApp,
  tempDir,
} from '../harness';
import { eventually } from '../page-actions';
import { RENDERER_DIR } from '../renderer-build';

let appDir: string;
let shotDir: string;
let app: BrowserApp;
let browser: Browser;
let page: Page;
let kmz: string;

const FIELDS = [
  { name: 'Wiese am Bach', ring: square(14.1, 46.2, 0.01) },
  { name: 'Acker Nord', ring: square(14.3, 46.2, 0.02) },
];

beforeAll(async () => {
  shotDir = freshScreenshotDir('field-import');
  appDir = tempDir('eo-e2e-import-app-');
  kmz = path.join(appDir, 'felder.kmz');
  const bytes = exportFeatures(
    [
      ...FIELDS.map((f) => ({
        geometry: { type: 'Polygon' as const, coordinates: [f.ring] },
        properties: { name: f.name },
      })),
      { geometry: { type: 'Point', coordinates: [14.2, 46.3] }, properties: { name: 'Brunnen' } },
    ],
    'kmz',
  );
  fs.writeFileSync(kmz, bytes);
  app = await startBrowserApp({ dataDir: appDir, rendererDir: RENDERER_DIR });
  browser = await launchChromium();
  page = await openPage(browser);
});

afterAll(() => closeJourney([browser, app], [appDir]));

const outboxList = () => listOutbox(app);

describe('EO Field Desk: a KMZ becomes AOIs', () => {
  it('previews the KMZ and queues one AOI per field', async () => {
    await page.goto(app.server.openUrl);
    await page.locator('header [data-screen="aois"]').click();
    await page.locator('[data-test="new-aoi"]').click();
    await page.locator('[data-test="aoi-satellite"]').fill('sat-aurora-1');
    await page.locator('[data-test="aoi-provider"]').fill('field-team');
    await page.locator('[data-test="aoi-project"]').fill('prj-demo-crops');
    await page.locator('[data-test="aoi-item-ids"]').fill('scene-1');
    await page.locator('[data-test="aoi-import"]').setInputFiles(kmz);

    const preview = page.locator('[data-test="file-import-preview"]');
    await eventually(() => preview.textContent()).toContain(
      'felder.kmz: 3 features (kmz), 2 usable as areas',
    );
    expect(await page.locator('[data-test="import-feature-3"]').textContent()).toContain('Brunnen');
    expect(await page.locator('[data-test="import-pick-3"]').isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(shotDir, '01-preview.png') });

    await page.locator('[data-test="import-queue-each"]').click();
    await eventually(() => page.locator('[data-test="file-import-done"]').textContent()).toContain(
      'Queued 2 AOIs (Wiese am Bach, Acker Nord)',
    );
    await page.screenshot({ path: path.join(shotDir, '02-queued.png') });

    const aois = (await outboxList()).entries.filter((e) => e.kind === 'aoi');
    expect(aois.map((e) => [e.state, e.input['name'], e.input['geometry']])).toEqual(
      FIELDS.map((f) => ['queued', f.name, { type: 'Polygon', coordinates: [f.ring] }]),
    );
  });
});
