/**
 * Index maps of AOIs offline (issue 15), in headless Chromium: an AOI and an NDVI visualization
 * made in the app (through its outbox, the service's worker run by the test), a sync keeps the
 * visualization's index PNGs, the service is stopped, and the AOIs screen draws the index map
 * over the AOI with its legend: the screenshot has coloured pixels inside the AOI, which go
 * when the overlay is switched off. Screenshots in test-output/e2e/index-map/.
 */
import type { Polygon } from '@eo/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { insideOf } from '../footprints';
import { useJourney, WIDE } from '../harness';
import { eventually, syncNow } from '../page-actions';

const j = useJourney('index-map', {
  app: { imagery: 'thumbnails' },
  page: WIDE,
  open: 'connected',
});
/** An aurora-1 scene with a catalog record, and its footprint (the AOI lies inside it). */
let scene: { id: string; footprint: Polygon };

beforeAll(() => {
  const row = j.service.server.app.ctx.sqlite
    // A scene with a catalog record: the sync keeps its thumbnail, shown beside the AOI's asset.
    .prepare(
      `SELECT s.id, s.feature_json AS f FROM archive_scenes s
       WHERE s.satellite_id = 'sat-aurora-1'
         AND EXISTS (SELECT 1 FROM catalog_records c WHERE c.item_id = s.id)`,
    )
    .get() as { id: string; f: string };
  scene = { id: row.id, footprint: (JSON.parse(row.f) as { geometry: Polygon }).geometry };
});

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
  return j.page.evaluate(fn, {
    b64: png.toString('base64'),
    vw: j.page.viewportSize()!.width,
    x: box.x,
    y: box.y,
    w: box.width,
    h: box.height,
  });
}

describe('index maps of AOIs offline in Chromium', () => {
  it('a sync keeps the index maps of a visualization made in the app', async () => {
    await eventually(() =>
      j.page.locator('header [data-test="connectivity-label"]').textContent(),
    ).toBe('Online');

    // The AOI and its visualization, made in the app and sent; the service's worker completes them.
    const aoi = (await j.app.call('outbox.enqueue', {
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
    await j.app.call('outbox.enqueue', {
      kind: 'visualization',
      input: {
        aoi_id: `local:${aoi.id}`,
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [`local:${aoi.id}#scenes`],
      },
    });
    expect(await j.app.call('outbox.flush')).toMatchObject({ sent: 2, failed: 0 });
    j.service.server.app.ctx.worker.drain();
    await j.app.call('created.refresh');

    await syncNow(j.page, 50_000);
    const counts = j.page.locator('[data-test="imagery-counts"]');
    await eventually(() => counts.textContent()).toMatch(/[1-9]\d* index maps?/);
    await j.shot('01-synced-with-index-maps');
  });

  it('offline: the AOIs map draws the index map inside the AOI, with its legend', async () => {
    await j.service.close();
    await j.tab('aois');
    await j.page.locator('[data-test^="aoi-row-"]', { hasText: 'Index-mapped field' }).click();
    // Its scene asset shows the scene's thumbnail from the mirror, offline.
    const thumb = j.page.locator(
      '[data-test="scene-thumbs"] [data-test="thumb"][data-state="shown"] img',
    );
    await eventually(() => thumb.count()).toBeGreaterThan(0);
    await eventually(() =>
      thumb.first().evaluate((img) => (img as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    const legend = j.page.locator('[data-test="index-map-legend"]');
    await eventually(() => legend.textContent()).toMatch(/NDVI.*\d{4}-\d{2}-\d{2}/s);
    expect(await legend.locator('[data-test="legend-min"]').textContent()).toBe('-1');
    expect(await legend.locator('[data-test="legend-max"]').textContent()).toBe('1');
    const overlay = j.page.locator('[data-test="map-image-overlay"]');
    await eventually(() =>
      overlay.evaluate((img) => (img as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    const box = (await overlay.boundingBox())!;
    expect(box.width).toBeGreaterThan(40);
    const on = await j.shot('02-offline-index-map');
    const shown = await colouredShare(on, box);
    expect(shown).toBeGreaterThan(0.5);

    await j.page.locator('[data-test="index-map-toggle"]').uncheck();
    await eventually(() => overlay.count()).toBe(0);
    const off = await j.shot('03-index-map-off');
    expect(await colouredShare(off, box)).toBeLessThan(shown / 2);
    await j.page.locator('[data-test="index-map-toggle"]').check();
    await eventually(() => overlay.count()).toBe(1);
  });
});
