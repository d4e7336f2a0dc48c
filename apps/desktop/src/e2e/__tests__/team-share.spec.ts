/**
 * Two laptops that never reach the service at the same time, in headless Chromium: two
 * browser-mode apps over two data folders. Laptop A syncs, shares an AOI's field package and
 * copies the AOI's link; with the service stopped, laptop B (never connected) opens the package
 * and the link and sees the AOI and its scenes from its own mirror. B, still offline, queues an
 * AOI and hands it over in a file; the service back, A sends it: the AOI exists once at the
 * service, and B never sends it. Screenshots in test-output/e2e/team-share/.
 */
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import type { CreateAoiRequest } from '@eo/domain';
import type { Polygon } from 'geojson';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGeoJson } from '../field-files';
import { insideOf } from '../footprints';
import {
  listOutbox,
  openPage,
  startBrowserApp,
  tempDir,
  useJourney,
  WIDE,
  type BrowserApp,
} from '../harness';
import { eventually, fillAoiForm, openScreen, queueAoi, syncNow } from '../page-actions';
import { RENDERER_DIR } from '../renderer-build';

const SHARED = 'Vines on the north slope';
const HANDED = 'Orchard seen from camp';
const PAGE = { ...WIDE, acceptDownloads: true, permissions: ['clipboard-read', 'clipboard-write'] };

const j = useJourney('team-share', { page: PAGE, open: 'synced' });
let b: BrowserApp;
let bPage: Page;
let scene: { id: string; footprint: Polygon };
let aoiId: string;
let packageFile: string;
let link: string;

beforeAll(async () => {
  const row = j.service.server.app.ctx.sqlite
    .prepare('SELECT id, feature_json AS feature FROM archive_scenes WHERE satellite_id = ?')
    .get('sat-aurora-1') as { id: string; feature: string };
  scene = { id: row.id, footprint: (JSON.parse(row.feature) as { geometry: Polygon }).geometry };
  // A colleague made the AOI on the service; laptop A's next sync brings it.
  const client = createEoClient({ baseUrl: j.service.url, apiKey: j.apiKey });
  const aoi = await client.createAoi({
    name: SHARED,
    description: 'Shared for the field',
    satellite_id: 'sat-aurora-1',
    provider: 'aurora-archive',
    project_id: 'prj-demo-crops',
    geometry: insideOf(scene.footprint) as CreateAoiRequest['geometry'],
    item_ids: [scene.id],
  });
  aoiId = aoi.aoi_id;
  await syncNow(j.page);
  b = await startBrowserApp({
    dataDir: tempDir('eo-e2e-team-share-b-'),
    rendererDir: RENDERER_DIR,
  });
  bPage = await openPage(j.browser, PAGE);
}, 60_000);

afterAll(async () => {
  await bPage?.close();
  await b?.close();
});

/** Clicks `button` in `page` and saves the download it starts into the journey's files. */
async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`[data-test="${button}"]`).click(),
  ]);
  const saved = path.join(j.filesDir, file.suggestedFilename());
  await file.saveAs(saved);
  return saved;
}

describe('two laptops share through files', () => {
  it('A shares an AOI’s field package and copies its link', async () => {
    await j.tab('aois');
    await j.page.locator(`[data-test="aoi-row-${aoiId}"]`).click();
    const details = j.page.locator('[data-test="aoi-details"]');
    await details.locator('[data-test="share-package-plan"]').click();
    await eventually(() =>
      details.locator('[data-test="share-package-contents"]').textContent(),
    ).toMatch(/1 AOI, \d+ catalog records?/);
    await j.shot('01-a-share-plan');
    packageFile = await download(j.page, 'share-package-save');
    expect(path.basename(packageFile)).toMatch(/^eo-package-.*\.gpkg$/);

    await details.getByRole('button', { name: 'Copy link to this AOI' }).click();
    link = await j.page.evaluate<string>('navigator.clipboard.readText()');
    expect(link).toBe(`eo-field-desk://aoi/${encodeURIComponent(aoiId)}`);
  });

  it('with the service stopped, B opens the package and the link from its own mirror', async () => {
    await j.service.close();
    await bPage.goto(b.server.openUrl);
    await openScreen(bPage, 'sync');
    await bPage.locator('[data-test="open-package-file"]').setInputFiles(packageFile);
    await eventually(() =>
      bPage.locator('[data-test="open-package-outcome"]').textContent(),
    ).toMatch(/records? added/);
    await openScreen(bPage, 'aois');
    await eventually(() => bPage.locator(`[data-test="aoi-row-${aoiId}"]`).textContent()).toContain(
      SHARED,
    );
    await bPage.screenshot({ path: path.join(j.shotDir, '02-b-package-opened.png') });

    const origin = new URL(b.server.openUrl).origin;
    await bPage.goto(`${origin}/#/link/aoi/${encodeURIComponent(aoiId)}`);
    await eventually(() => bPage.locator('[data-test="aoi-details"]').textContent()).toContain(
      SHARED,
    );
    await bPage.screenshot({ path: path.join(j.shotDir, '03-b-link-offline.png') });
  });

  it('B, offline, hands over a queued AOI; A sends it once the service is back', async () => {
    await openScreen(bPage, 'aois');
    if ((await bPage.locator('[data-test="aoi-name"]').count()) === 0)
      await bPage.locator('[data-test="new-aoi"]').click();
    await fillAoiForm(bPage, {
      name: HANDED,
      satelliteId: 'sat-aurora-1',
      provider: 'field-team',
      projectId: 'prj-demo-crops',
      areaFile: writeGeoJson(j.filesDir, 'orchard.geojson', insideOf(scene.footprint)),
      sceneId: scene.id,
    });
    await queueAoi(bPage, HANDED);

    await openScreen(bPage, 'outbox');
    await bPage.locator('[data-test="handover-plan"]').click();
    await eventually(() => bPage.locator('[data-test="handover-contents"]').textContent()).toMatch(
      /1 queued create \(1 AOI\); [\d.]+ KB/,
    );
    await bPage.screenshot({ path: path.join(j.shotDir, '04-b-handover-plan.png') });
    const handover = await download(bPage, 'handover-save');
    expect(path.basename(handover)).toMatch(/^eo-handover-1-create-\d{8}-\d{4}\.json$/);
    expect((await listOutbox(b)).counts).toMatchObject({ queued: 0, handed_over: 1 });

    await j.restartService();
    await j.tab('outbox');
    await j.page.locator('[data-test="handover-file"]').setInputFiles(handover);
    await eventually(() => j.page.locator('[data-test="handover-outcome"]').textContent()).toBe(
      'Queued 1 create from another laptop.',
    );
    // "Submit all" once A finds the service again (its automatic batch may send it first).
    const submit = j.page.locator('[data-test="submit-all"]');
    await eventually(async () => {
      if ((await listOutbox(j.app)).counts.sent === 1) return 'sent';
      if (await submit.isEnabled()) await submit.click();
      return 'not sent yet';
    }, 20_000).toBe('sent');
    await j.shot('05-a-sent');

    const onService = j.service.server.app.ctx.sqlite
      .prepare('SELECT count(*) FROM aois WHERE name = ?')
      .pluck()
      .get(HANDED);
    expect(onService).toBe(1);
    const sent = (await listOutbox(j.app)).entries.find((e) => e.state === 'sent')!;
    const handed = (await listOutbox(b)).entries.find((e) => e.state === 'handed_over')!;
    // The same entry, by the same key: B never sends it.
    expect(sent.id).toBe(handed.id);
  });
});
