/**
 * Imagery offline (issue 15), in headless Chromium: a sync keeps the thumbnails of the mirrored
 * catalog records, the service is stopped, and an offline search shows a picture in every
 * result row on screen (their pixels not blank), a larger one in the detail panel, an order
 * item's scene thumbnail on the orders screen, and the
 * quicklooks drawn on their footprints on the map (the Imagery toggle takes them off), and two
 * scenes compared with the swipe divider (A only, B only and split: different pictures).
 * Screenshots in test-output/e2e/imagery/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney, WIDE } from '../harness';
import { eventually, resultTotal, syncNow } from '../page-actions';
import { PIXEL_STATS } from '../pixels';

// 200 scenes: every 20th is a catalog record, so 10 thumbnails (the service renders ~5/s).
const j = useJourney('imagery', { app: { imagery: 'thumbnails' }, page: WIDE, open: 'connected' });

beforeAll(() => placeOrderOfRecordScene());

const ORDER_ITEM = 'E2E field with a picture';

/**
 * An archive order of one catalog record's scene, placed on the service before the sync (so
 * mirrored); the worker is not run, so it adds no catalog record.
 */
async function placeOrderOfRecordScene(): Promise<void> {
  const row = j.service.server.app.ctx.sqlite
    .prepare(
      `SELECT s.id, s.feature_json AS f FROM archive_scenes s
       WHERE EXISTS (SELECT 1 FROM catalog_records c WHERE c.item_id = s.id)`,
    )
    .get() as { id: string; f: string };
  const geometry = (JSON.parse(row.f) as { geometry: unknown }).geometry;
  const res = await j.service.server.app.inject({
    method: 'POST',
    url: '/v0/orders',
    headers: { authorization: j.apiKey },
    payload: {
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: ORDER_ITEM,
          item_ids: [row.id],
          geometry: {
            type: 'FeatureCollection',
            features: [{ type: 'Feature', properties: {}, geometry }],
          },
        },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}

/**
 * A canvas's pixels in full: how many are not transparent left and right of screen x `at`
 * (the divider), and a fingerprint of where and what they are (two different pictures, or one
 * picture moved, give different fingerprints).
 */
interface CanvasPixels {
  readonly left: number;
  readonly right: number;
  readonly print: number;
}
const CANVAS_PIXELS = new Function(
  'el',
  'at',
  `
  const box = el.getBoundingClientRect();
  const split = (at - box.left) * (el.width / box.width);
  const d = el.getContext('2d').getImageData(0, 0, el.width, el.height).data;
  let left = 0, right = 0, print = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    if ((i / 4) % el.width < split) left++; else right++;
    print = (print * 31 + i + d[i] * 7 + d[i + 1] * 13 + d[i + 2]) % 1000000007;
  }
  return { left, right, print };
`,
) as (el: unknown, at: number) => CanvasPixels;

describe('imagery offline in Chromium', () => {
  it('syncs the records, then their thumbnails, and counts the pictures', async () => {
    await syncNow(j.page, 50_000);
    const counts = j.page.locator('[data-test="imagery-counts"]');
    await eventually(() => counts.textContent()).toMatch(/10 thumbnails/);
    expect(await counts.textContent()).toMatch(/0 overviews/);
    await j.shot('01-synced-with-pictures');
  });

  it('offline: a thumbnail in every result row on screen, not blank', async () => {
    await j.service.close();
    await j.page.getByRole('button', { name: 'Catalog', exact: true }).click();
    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(() => resultTotal(j.page)).toBe(10);
    const rows = j.page.locator('[role="option"][data-id]');
    await eventually(() => rows.count()).toBe(10);
    const shown = j.page.locator('[role="option"] [data-test="thumb"][data-state="shown"] img');
    await eventually(() => shown.count(), 20_000).toBe(10);
    for (let i = 0; i < 10; i++) {
      const stats = await shown.nth(i).evaluate(PIXEL_STATS);
      expect(stats.spread).toBeGreaterThan(3);
    }
    await j.shot('02-offline-list-thumbnails');
  });

  it('the detail panel shows a larger picture', async () => {
    await j.page.locator('#result-row-0').click();
    const big = j.page.locator('[data-test="detail-thumb"][data-state="shown"] img');
    await big.waitFor();
    expect((await big.evaluate(PIXEL_STATS)).spread).toBeGreaterThan(3);
    expect((await big.boundingBox())!.width).toBeGreaterThan(150);
    await j.shot('03-offline-detail-picture');
  });

  it("the orders screen shows an order item's scene thumbnail offline", async () => {
    await j.tab('orders');
    await j.page.locator('[data-test^="order-row-"]', { hasText: ORDER_ITEM }).click();
    const thumb = j.page.locator(
      '[data-test="scene-thumbs"] [data-test="thumb"][data-state="shown"] img',
    );
    await eventually(() => thumb.count()).toBeGreaterThan(0);
    expect((await thumb.first().evaluate(PIXEL_STATS)).spread).toBeGreaterThan(3);
    await j.shot('03b-offline-order-thumbnail');
    await j.tab('catalog');
  });

  it('draws the quicklooks on their footprints; the Imagery toggle takes them off', async () => {
    await j.page.getByRole('button', { name: 'Zoom to results' }).click();
    const canvas = j.page.locator('.catalog .leaflet-pane canvas[data-drawn]');
    await eventually(async () => Number(await canvas.getAttribute('data-drawn')), 20_000).toBe(10);
    // Ten scenes at world zoom are specks (their pixels are checked up close below).
    await j.shot('04-offline-map-quicklooks-world');

    // One scene up close: its picture covers the middle of the map.
    // The row opened in the detail panel goes in the basket, and the map zooms to the basket.
    if ((await j.page.locator('#result-row-0').getAttribute('aria-selected')) !== 'true')
      await j.page.locator('#result-row-0 .row__check').click();
    await j.page.getByRole('button', { name: 'Zoom to basket' }).click();
    await eventually(async () => {
      const s = await canvas.evaluate(PIXEL_STATS);
      return s.opaque > 0.15 && s.spread > 3;
    }, 20_000).toBe(true);
    await j.shot('05-offline-map-quicklook-zoomed');

    await j.page.locator('[data-test="imagery-toggle"]').uncheck();
    await eventually(() => canvas.count()).toBe(0);
    await j.shot('06-imagery-off');
    await j.page.locator('[data-test="imagery-toggle"]').check();
    await eventually(() => canvas.count()).toBe(1);
  });

  it('compares two scenes with the swipe divider: A left, B right, moved by keyboard', async () => {
    // Two records in the basket (the first is there from the test above).
    if ((await j.page.locator('#result-row-1').getAttribute('aria-selected')) !== 'true')
      await j.page.locator('#result-row-1 .row__check').click();
    await j.page.getByRole('button', { name: 'Compare two scenes' }).click();
    const canvas = j.page.locator('.catalog .leaflet-pane canvas[data-compare]');
    await eventually(() => canvas.getAttribute('data-compare'), 20_000).toBe('drawn drawn');
    // The other quicklooks are hidden while comparing.
    expect(await j.page.locator('.catalog .leaflet-pane canvas[data-drawn]').count()).toBe(0);
    const divider = j.page.getByRole('slider', { name: /^Divider: .* left, .* right$/ });
    expect(await divider.getAttribute('aria-valuenow')).toBe('50');
    await j.shot('07-compare-split');
    // The demo's scenes lie far apart: at this view A's picture is left of the middle, B's right.
    const box = (await divider.boundingBox())!;
    const middle = box.x + box.width / 2;
    const pixels = () => canvas.evaluate(CANVAS_PIXELS, middle);
    const split = await pixels();
    expect(split.left).toBeGreaterThan(20);
    expect(split.right).toBeGreaterThan(20);

    await divider.focus();
    await j.page.keyboard.press('End');
    expect(await divider.getAttribute('aria-valuenow')).toBe('100');
    await eventually(async () => (await pixels()).print).not.toBe(split.print);
    const onlyA = await pixels();
    await j.shot('08-compare-all-a');
    await j.page.keyboard.press('Home');
    expect(await divider.getAttribute('aria-valuenow')).toBe('0');
    await eventually(async () => (await pixels()).print).not.toBe(onlyA.print);
    const onlyB = await pixels();
    await j.shot('09-compare-all-b');
    // All A: A's picture as at the split, B's gone; all B: the reverse. Different pictures.
    expect(onlyA).toMatchObject({ left: split.left, right: 0 });
    expect(onlyB).toMatchObject({ left: 0, right: split.right });
    expect(onlyA.print).not.toBe(onlyB.print);
    // Arrow keys step it; closing brings the other quicklooks back.
    await j.page.keyboard.press('ArrowRight');
    expect(await divider.getAttribute('aria-valuenow')).toBe('2');
    await j.page.getByRole('button', { name: 'Close compare' }).click();
    await eventually(() =>
      j.page.locator('.catalog .leaflet-pane canvas[data-drawn]').count(),
    ).toBe(1);
  });
});
