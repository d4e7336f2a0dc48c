/**
 * New AOIs followed to their end (issue 17, item 4), in headless Chromium against the real
 * reference service, whose worker the test runs: two AOIs created in the app and sent with
 * "Submit all" show "Started" at first; once the service has processed them, the AOIs screen
 * shows one "Success" and one "Failed" at 100 % without anyone syncing or refreshing, and the
 * failed one says why in the service's words. Screenshots in test-output/e2e/aoi-follow/.
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
import { eventually, fillAoiForm, queueAoi } from '../page-actions';
import { insideOf } from '../footprints';
import { RENDERER_DIR } from '../renderer-build';

const SATELLITE = 'sat-aurora-1';
const PROJECT = 'prj-demo-crops';

let serviceDir: string;
let appDir: string;
let filesDir: string;
let shotDir: string;
let service: ReferenceService;
let app: BrowserApp;
let browser: Browser;
let page: Page;
/** An aurora-1 scene and its footprint, and another one far from it. */
let scene: { id: string; footprint: Polygon };
let farSceneId: string;

beforeAll(async () => {
  shotDir = freshScreenshotDir('aoi-follow');
  serviceDir = tempDir('eo-e2e-follow-service-');
  appDir = tempDir('eo-e2e-follow-app-');
  filesDir = tempDir('eo-e2e-follow-files-');
  service = await startReferenceService({ dataDir: serviceDir });
  const apiKey = seedService(service, { scenes: 200 });
  const rows = service.server.app.ctx.sqlite
    .prepare('SELECT id, feature_json AS feature FROM archive_scenes WHERE satellite_id = ?')
    .all(SATELLITE) as Array<{ id: string; feature: string }>;
  const scenes = rows.map((r) => ({
    id: r.id,
    footprint: (JSON.parse(r.feature) as { geometry: Polygon }).geometry,
  }));
  scene = scenes[0]!;
  const [x, y] = scene.footprint.coordinates[0]![0]! as [number, number];
  farSceneId = scenes.find((s) =>
    s.footprint.coordinates[0]!.every(([lon, lat]) => Math.abs(lon! - x) + Math.abs(lat! - y) > 5),
  )!.id;
  app = await startBrowserApp({ dataDir: appDir, rendererDir: RENDERER_DIR });
  browser = await launchChromium();
  page = await openPage(browser, { viewport: { width: 1400, height: 900 } });
  await page.goto(app.server.openUrl);
  await page.getByLabel('Service URL').fill(service.url);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Save' }).click();
});

afterAll(() => closeJourney([browser, app, service], [serviceDir, appDir, filesDir]));

const shot = (name: string) =>
  page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage: false });
const tab = (screen: string) => page.locator(`header [data-screen="${screen}"]`).click();

async function createAoi(name: string, sceneId: string): Promise<void> {
  // The form stays open after queueing, empty, for the next AOI.
  if ((await page.locator('[data-test="aoi-name"]').count()) === 0) {
    await page.locator('[data-test="new-aoi"]').click();
  }
  const file = path.join(filesDir, `${name}.geojson`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry: insideOf(scene.footprint) }],
    }),
  );
  await fillAoiForm(page, {
    name,
    satelliteId: SATELLITE,
    provider: 'field-team',
    projectId: PROJECT,
    areaFile: file,
    sceneId,
  });
  await queueAoi(page, name);
}

const row = (name: string) => page.locator('[data-test^="aoi-row-"]', { hasText: name });

describe('AOIs followed to the end in Chromium', () => {
  it('two AOIs created and sent start at 0 %', async () => {
    await eventually(() =>
      page.locator('header [data-test="connectivity-label"]').textContent(),
    ).toBe('Online');
    await tab('aois');
    await createAoi('Good field', scene.id);
    await createAoi('Far field', farSceneId);
    await tab('outbox');
    await page.locator('[data-test="submit-all"]').click();
    await eventually(() =>
      page.locator('[data-test="batch-notification"]').textContent(),
    ).toContain('2 created');
    await tab('aois');
    await eventually(() => row('Far field').textContent()).toContain('Started');
    await shot('01-started');
  });

  it('the service finishes them: the screen follows, with the reason of the failure, no sync', async () => {
    service.server.app.ctx.worker.drain();
    await eventually(() => row('Far field').textContent(), 20_000).toContain('Failed');
    await eventually(() => row('Good field').textContent(), 20_000).toContain('Success');
    expect(
      await row('Far field').locator('[role="progressbar"]').getAttribute('aria-valuenow'),
    ).toBe('100');
    await row('Far field').click();
    await eventually(() => page.locator('[data-test="aoi-failure-reason"]').textContent()).toBe(
      `Scene ${farSceneId} does not intersect the AOI`,
    );
    await shot('02-failed-with-reason');
    // Followed, not synced: the mirror was never synced.
    const status = await app.backend.dispatch('sync.status', undefined);
    expect(status.ok && (status.value as { resources: unknown[] }).resources).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ lastCompleteAt: expect.any(String) })]),
    );
  });
});
