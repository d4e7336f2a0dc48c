/**
 * Saved archive searches offline (issue 15), in headless Chromium: a user saves an archive
 * search on the Archive screen, syncs, the service is stopped, and the screen lists the kept
 * scenes with their thumbnails decoded (pixels not blank), read from the mirror, and the map
 * draws those thumbnails on the scenes' outlines (canvas pixels not blank); axe-core finds
 * no serious or critical violation there (light and dark) and nothing scrolls sideways at
 * 1024 x 700; the search is edited offline (saved under its id, its scenes kept until the next
 * sync). The Sync screen counts what the search keeps. Screenshots in test-output/e2e/archive/.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAxe, screenLayout } from '../a11y-checks';
import { useJourney, WIDE } from '../harness';
import { eventually, syncNow } from '../page-actions';
import { PIXEL_STATS } from '../pixels';

const j = useJourney('archive', { app: { imagery: 'thumbnails' }, page: WIDE, open: 'connected' });

const SCENES_KEPT = 5;
/** The newest scenes of the search, as the service lists them (what the screen must show). */
let expectedIds: string[] = [];

beforeAll(async () => {
  const res = await j.service.server.app.inject({
    method: 'POST',
    url: '/v0/search',
    headers: { authorization: j.apiKey },
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
});

describe('saved archive searches offline in Chromium', () => {
  it('saves an archive search on the Archive screen', async () => {
    await j.page.locator('header [data-screen="archive"]').click();
    await j.page.getByRole('heading', { name: 'Archive', exact: true, level: 1 }).waitFor();
    const form = j.page.locator('[data-test="archive-form"]');
    await form.getByLabel('Name').fill('Aurora-1, newest');
    await form.getByLabel('Satellite').fill('sat-aurora-1');
    await form.getByLabel('Collection').fill('col-aurora-l2a');
    await form.getByLabel('Area').selectOption('anywhere');
    await form.getByLabel('Scenes kept').fill(String(SCENES_KEPT));
    await form.getByRole('button', { name: 'Save search' }).click();
    const row = j.page.locator('[data-test="archive-search"]');
    await eventually(() => row.textContent()).toContain('not synced yet');
    expect(await row.textContent()).toContain('Aurora-1, newest');
    await j.shot('01-saved');
  });

  it('syncs: the search keeps its scenes and their thumbnails', async () => {
    await syncNow(j.page, 50_000);
    // The Sync screen counts what the saved searches keep.
    const counts = j.page.locator('[data-test="archive-counts"]');
    await eventually(async () => (await counts.textContent())?.replace(/\s+/g, ' ').trim()).toMatch(
      new RegExp(`1 saved search, ${SCENES_KEPT} scenes, ${SCENES_KEPT} thumbnails,`),
    );
    await j.shot('01b-sync-archive-counts');
    await j.page.locator('header [data-screen="archive"]').click();
    await eventually(() => j.page.locator('[data-test="archive-search"]').textContent()).toContain(
      `${SCENES_KEPT} scenes kept`,
    );
  });

  it('offline: the Archive screen lists the scenes with decoded thumbnails', async () => {
    await j.service.close();
    // Another screen and back: the list is read again, from the mirror only.
    await j.page.locator('header [data-screen="orders"]').click();
    await j.page.locator('header [data-screen="archive"]').click();
    const scenes = j.page.locator('[data-test="archive-scene"]');
    await eventually(() => scenes.count()).toBe(SCENES_KEPT);
    const ids = await scenes.locator('.scene__id').allTextContents();
    expect(ids.map((t) => t.trim())).toEqual(expectedIds);
    const shown = j.page.locator(
      '[data-test="archive-scene"] [data-test="thumb"][data-state="shown"] img',
    );
    await eventually(() => shown.count(), 20_000).toBe(SCENES_KEPT);
    for (let i = 0; i < SCENES_KEPT; i++) {
      const stats = await shown.nth(i).evaluate(PIXEL_STATS);
      expect(stats.opaque).toBeGreaterThan(0.9);
      expect(stats.spread).toBeGreaterThan(3);
    }
    expect(await scenes.first().textContent()).toMatch(/% cloud · sat-aurora-1/);
    await j.shot('02-offline-scenes-with-thumbnails');
  });

  it('offline: the map draws the thumbnails on the scenes, a picked row is brought into view', async () => {
    const canvas = j.page.locator('[data-test="archive-map"] .leaflet-pane canvas[data-drawn]');
    // Fitted to the search's scenes: every one drawn.
    await eventually(async () => Number(await canvas.getAttribute('data-drawn')), 20_000).toBe(
      SCENES_KEPT,
    );
    const outlines = j.page.locator('[data-test="archive-map"] path.leaflet-interactive');
    expect(await outlines.count()).toBeGreaterThanOrEqual(SCENES_KEPT);
    const world = await canvas.evaluate(PIXEL_STATS);
    await j.shot('02b-offline-map-of-the-scenes');

    // One scene picked in the list: the map zooms to it and its picture (a long narrow strip on
    // a wide map) covers many times what the five specks did, with a picture's spread of tones.
    await j.page.locator('[data-test="archive-scene-pick"]').first().click();
    await eventually(async () => {
      const s = await canvas.evaluate(PIXEL_STATS);
      return s.opaque > Math.max(0.03, 10 * world.opaque) && s.spread > 3;
    }, 20_000).toBe(true);
    await j.shot('02c-offline-map-scene-picked');
  });

  it('axe-core finds no serious or critical violation; nothing scrolls sideways at 1024 x 700', async () => {
    // Evaluated, not a <script>: the app's Content-Security-Policy allows no inline script.
    await j.page.evaluate(
      fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8'),
    );
    for (const scheme of ['light', 'dark'] as const) {
      await j.page.emulateMedia({ colorScheme: scheme });
      expect(await runAxe(j.page), scheme).toEqual([]);
    }
    await j.page.setViewportSize({ width: 1024, height: 700 });
    await j.page.emulateMedia({ colorScheme: 'light' });
    expect((await screenLayout(j.page)).overflow).toBe(0);
    await j.shot('03-archive-1024');
  });

  it('offline: edits the saved search in the form, saved under the same id', async () => {
    await j.page.setViewportSize({ width: 1400, height: 900 });
    await j.page.locator('[data-test="archive-edit"]').click();
    const form = j.page.locator('[data-test="archive-form"]');
    await eventually(() => form.getByLabel('Name').inputValue()).toBe('Aurora-1, newest');
    expect(await form.getByLabel('Area').inputValue()).toBe('anywhere');
    await form.getByLabel('Name').fill('Aurora-1, the newest');
    await form.getByRole('button', { name: 'Save changes' }).click();
    const rows = j.page.locator('[data-test="archive-search"]');
    await eventually(() => rows.first().textContent()).toContain('Aurora-1, the newest');
    expect(await rows.count()).toBe(1);
    // Its scenes stay until the next sync runs the changed search.
    expect(await rows.first().textContent()).toContain(`${SCENES_KEPT} scenes kept`);
    await j.shot('04-offline-edited');
  });
});
