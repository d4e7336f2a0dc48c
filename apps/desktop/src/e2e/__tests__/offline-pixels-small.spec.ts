/**
 * Real pixels offline in a laptop-sized window (1024x700), light and dark, in headless Chromium:
 * the "Offline imagery" panel open on a site with the pixel inspector reading a point and the
 * compare swipe on a second date, "Take offline" in a scene's detail, and the offline rasters on
 * the Sync screen. axe-core finds no serious or critical violation on any of them; on the map,
 * the panel and the compare divider's handle lie over no map control and inside the map, and
 * the map's controls keep their own room (measured by their boxes, map-boxes.ts); no screen is
 * wider than the window. Screenshots in test-output/e2e/offline-pixels-small/.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  windowSource,
  writeSiteWindow,
  type SiteWindow,
} from '../../backend/__tests__/site-window';
import { runAxe, screenLayout } from '../a11y-checks';
import { useJourney } from '../harness';
import { controlBoxes, inside, layoutProblems, overlap } from '../map-boxes';
import { eventually } from '../page-actions';

const SIZE = { width: 1024, height: 700 };
const source = windowSource();
const j = useJourney('offline-pixels-small', {
  app: { offlineRasters: source },
  page: { viewport: SIZE },
  open: 'synced',
});
let site: SiteWindow;

beforeAll(async () => {
  site = await writeSiteWindow(path.join(j.filesDir, 'site.tif'));
  source.add('site-1', site, '10 km at Lake Field');
  const july = await writeSiteWindow(path.join(j.filesDir, 'site-july.tif'), {
    datetime: '2024-07-20T10:30:00Z',
    sceneId: 'aurora-1-20240720-site',
    seed: 7,
  });
  source.add('site-2', july, '10 km at Lake Field');
  await j.page.evaluate(
    fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8'),
  );
});

/** What on the catalog map lies over what: its controls, the panel and the compare handle. */
async function mapProblems(): Promise<string[]> {
  const boxes = await controlBoxes(j.page.locator('.map-view'));
  expect(boxes.controls.length, 'map controls found').toBeGreaterThan(8);
  const problems = layoutProblems(boxes);
  const parts: [string, string][] = [
    ['[data-test="offline-imagery"]', '"Offline imagery" panel'],
    ['[data-test="compare-handle"]', 'compare handle'],
  ];
  for (const [selector, name] of parts) {
    const box = (await j.page.locator(selector).boundingBox())!;
    expect(box, `${name} shown`).not.toBe(null);
    if (!inside(box, boxes.map)) problems.push(`${name} is (partly) outside the map`);
    for (const c of boxes.controls)
      if (overlap(box, c)) problems.push(`${name} lies over ${c.name}`);
  }
  return problems;
}

/** The site opened in the panel, the inspector at the device's position, compare on. */
async function openSite(): Promise<void> {
  await j.tab('catalog');
  const toggle = j.page.locator('[data-test="offline-imagery-toggle"]');
  if ((await j.page.locator('[data-test="offline-raster-select"]').count()) === 0)
    await toggle.click();
  await eventually(() => toggle.textContent()).toMatch(/\(2\)/);
  await j.page.locator('[data-test="offline-raster-select"]').selectOption('site-1');
  await j.page.locator('[data-test="raster-combination"]').waitFor({ timeout: 30_000 });
  const [lon, lat] = site.lonLatOf(...site.places.water);
  await j.page.context().grantPermissions(['geolocation']);
  await j.page.context().setGeolocation({ latitude: lat, longitude: lon, accuracy: 15 });
  await j.page.locator('[data-test="inspect-position"]').click();
  await j.page.locator('[data-test="pixel-reading"]').waitFor({ timeout: 30_000 });
  await j.page.locator('[data-test="site-compare"]').selectOption('site-2');
  await j.page.locator('[data-test="compare-handle"]').waitFor({ timeout: 30_000 });
}

for (const scheme of ['light', 'dark'] as const) {
  describe(`offline pixels at 1024x700, ${scheme}`, () => {
    it('the panel with the inspector and compare: apart from every map control; axe clean', async () => {
      await j.page.emulateMedia({ colorScheme: scheme });
      await openSite();
      await j.shot(`${scheme}-panel`);
      expect(await mapProblems()).toEqual([]);
      expect((await screenLayout(j.page)).overflow).toBe(0);
      expect(await runAxe(j.page), `panel ${scheme}`).toEqual([]);
      // The inspector's reading, scrolled into the panel's view, is clean too.
      await j.page.locator('[data-test="pixel-reading"]').scrollIntoViewIfNeeded();
      expect(await runAxe(j.page), `inspector ${scheme}`).toEqual([]);
    });

    it('"Take offline" in a scene\'s detail: axe clean, nothing wider than the window', async () => {
      await j.tab('catalog');
      await j.page
        .locator('[role="listbox"][aria-label="Search results"] [role="option"]')
        .first()
        .click();
      const take = j.page.locator('[data-test="take-offline"]');
      await take.scrollIntoViewIfNeeded();
      await j.shot(`${scheme}-take-offline`);
      expect((await screenLayout(j.page)).overflow).toBe(0);
      expect(await runAxe(j.page), `take offline ${scheme}`).toEqual([]);
    });

    it('the offline rasters on the Sync screen: axe clean, nothing wider than the window', async () => {
      await j.tab('sync');
      const row = j.page.locator('[data-test="offline-raster-site-1"]');
      await row.waitFor();
      await row.scrollIntoViewIfNeeded();
      await j.shot(`${scheme}-sync-list`);
      expect((await screenLayout(j.page)).overflow).toBe(0);
      expect(await runAxe(j.page), `sync list ${scheme}`).toEqual([]);
    });
  });
}
