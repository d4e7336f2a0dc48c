/**
 * The catalog map as a field team uses it (issue 18), in headless Chromium with real layout:
 * "Zoom to results" shows one world with a scale bar (the band and repeated world are checked
 * in happy-dom, map/__tests__/world-view.spec.ts; look at 01-zoom-to-results.png), zoomed to one
 * footprint the map has a scale bar and the pointer's position, hovering a footprint
 * highlights and scrolls to its row with a tooltip, "go to coordinates" reads DMS, the offline
 * basemap paints place names, the graticule and lake water at scene scale. Screenshots
 * in test-output/e2e/map-field/ (and the one-footprint view at /tmp/eo-map-one-footprint.png).
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useJourney, WIDE } from '../harness';
import { addResultToBasket, eventually, resultTotal } from '../page-actions';

const j = useJourney('map-field', { service: { bulkRecords: 300 }, page: WIDE, open: 'synced' });

const mapEl = () => j.page.locator('.catalog .map-frame__map');

/**
 * The colour of one screen pixel, from a 1x1 PNG screenshot: the one row's filter byte, then
 * the pixel (with nothing to its left or above, every PNG filter leaves it as stored).
 */
async function pixelAt(x: number, y: number): Promise<[number, number, number]> {
  const png = await j.page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') {
      chunks.push(png.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(chunks));
  return [raw[1]!, raw[2]!, raw[3]!];
}

describe('the catalog map in Chromium', () => {
  it('fits a new search to one world, with a scale bar', async () => {
    await j.page.getByRole('button', { name: 'Catalog', exact: true }).click();
    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(() => resultTotal(j.page)).toBeGreaterThan(0);
    await j.page.getByRole('button', { name: 'Zoom to results' }).click();
    await expect
      .poll(() => j.page.locator('.catalog .leaflet-control-scale-line').isVisible())
      .toBe(true);
    await j.shot('01-zoom-to-results');
  });

  it('clusters the dots at world zoom with counts, and zooms in on a click', async () => {
    const clusters = j.page.locator('.catalog .eo-cluster');
    await eventually(() => clusters.count()).toBeGreaterThan(0);
    const counts = await clusters.allTextContents();
    expect(counts.every((t) => Number(t) >= 2)).toBe(true);
    const scale = j.page.locator('.catalog .leaflet-control-scale-line');
    const before = await scale.textContent();
    await clusters.first().click();
    await eventually(() => scale.textContent()).not.toBe(before);
    await j.shot('01b-cluster-zoomed');
    await j.page.getByRole('button', { name: 'Zoom to results' }).click();
  });

  it('has a layer control whose choices hold', async () => {
    await j.page.locator('.catalog [data-test="layers-button"]').click();
    await j.page.locator('.catalog [data-test="layer-footprints"]').uncheck();
    await eventually(() => j.page.locator('.catalog .eo-cluster').count()).toBe(0);
    await j.shot('01c-layers-footprints-off');
    await j.page.locator('.catalog [data-test="layer-footprints"]').check();
    await eventually(() => j.page.locator('.catalog .eo-cluster').count()).toBeGreaterThan(0);
    await j.page.locator('.catalog [data-test="layers-button"]').click();
  });

  it('zoomed to one footprint: scale bar, pointer position, hover both ways', async () => {
    const first = await j.page.locator('#result-row-0').getAttribute('data-id');
    expect(first).not.toBeNull();
    await addResultToBasket(j.page, first!);
    await j.page.getByRole('button', { name: 'Zoom to basket' }).click();
    const scale = j.page.locator('.catalog .leaflet-control-scale-line');
    // Zoomed in to a scene: the scale bar counts kilometres (tens) or metres, not 1000s of km.
    await eventually(async () => {
      const t = (await scale.textContent()) ?? '';
      const km = /km/.test(t) ? Number(t.replace(/\D/g, '')) : 0;
      return km < 200;
    }).toBe(true);

    // The footprint sits in the middle of the map (fitted): hover it there.
    const box = (await mapEl().boundingBox())!;
    await j.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await eventually(() => j.page.locator('[data-test="cursor-position"]').textContent()).toMatch(
      /^\s*-?\d+\.\d{5}, -?\d+\.\d{5}\s*$/,
    );
    await eventually(() =>
      j.page
        .locator(`[data-id="${first}"]`)
        .evaluate((el) => el.classList.contains('row--hovered')),
    ).toBe(true);
    await eventually(() => j.page.locator('.leaflet-tooltip').isVisible()).toBe(true);
    expect(await j.page.locator('.leaflet-tooltip').textContent()).toMatch(/%/);
    // The offline basemap at scene scale: place names and the graticule are painted.
    const labels = j.page.locator('.catalog .leaflet-eo-basemap-labels-pane .eo-canvas-view');
    await eventually(
      async () => ((await labels.getAttribute('data-places')) ?? '').length,
    ).toBeGreaterThan(0);
    expect(Number(await labels.getAttribute('data-graticule-lines'))).toBeGreaterThan(1);
    await j.page.screenshot({ path: '/tmp/eo-map-one-footprint.png', fullPage: false });
    await j.shot('02-one-footprint');
  });

  it('goes to coordinates typed in DMS', async () => {
    const input = j.page.locator('.catalog [data-test="goto-input"]');
    await input.fill(`59°19'48"N 18°4'12"E`);
    await input.press('Enter');
    await j.page.mouse.move(0, 0);
    const box = (await mapEl().boundingBox())!;
    await j.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await eventually(() => j.page.locator('[data-test="cursor-position"]').textContent()).toMatch(
      /59\.3\d+, 18\.0\d+/,
    );
    await input.fill('95, 10');
    await input.press('Enter');
    await eventually(() => j.page.locator('[data-test="goto-error"]').textContent()).toMatch(
      /latitude must lie/,
    );
    await j.shot('03-goto');
  });

  it('paints water and place names offline at scene scale (Lake Geneva)', async () => {
    const input = j.page.locator('.catalog [data-test="goto-input"]');
    await input.fill('46.45, 6.55');
    await input.press('Enter');
    const labels = j.page.locator('.catalog .leaflet-eo-basemap-labels-pane .eo-canvas-view');
    // The lake shore's towns (Lausanne, Évian-les-Bains, Thonon-les-Bains are all in view).
    await eventually(async () => (await labels.getAttribute('data-places')) ?? '').toMatch(
      /Lausanne|Évian|Thonon/,
    );
    await j.page.mouse.move(0, 0);
    const box = (await mapEl().boundingBox())!;
    // Off the "go to" ring at the centre: the lake's fill, BASEMAP_STYLE.water (#aacbe3).
    await eventually(() =>
      pixelAt(box.x + box.width / 2 + 25, box.y + box.height / 2 + 25),
    ).toEqual([170, 203, 227]);
    await j.shot('04-lake-geneva');
  });

  it('goes to a place found in the bundled gazetteer', async () => {
    const input = j.page.locator('.catalog [data-test="place-input"]');
    await input.fill('malmo');
    await j.page.locator('.catalog [data-test="place-result-0"]').waitFor();
    expect(await j.page.locator('.catalog [data-test="place-result-0"]').textContent()).toMatch(
      /Malmö, SE/,
    );
    await j.shot('05-place-search');
    await j.page.locator('.catalog [data-test="place-result-0"]').click();
    const labels = j.page.locator('.catalog .leaflet-eo-basemap-labels-pane .eo-canvas-view');
    await eventually(async () => (await labels.getAttribute('data-places')) ?? '').toMatch(/Malmö/);
  });

  it("shows the map's focus ring all round, over Leaflet's panes", async () => {
    const input = j.page.locator('.catalog [data-test="goto-input"]');
    await input.focus();
    // Back from the box to the map with the keyboard (the zoom buttons and the map's own
    // controls lie between: at most a couple of dozen stops).
    const map = mapEl();
    let focused = false;
    for (let i = 0; i < 25 && !focused; i++) {
      await j.page.keyboard.press('Shift+Tab');
      focused = await j.page.evaluate<boolean>(
        `document.activeElement === document.querySelector('.catalog .map-frame__map')`,
      );
    }
    expect(focused, 'Shift+Tab from the go-to box never reached the map').toBe(true);
    expect(await map.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    const box = (await map.boundingBox())!;
    const midY = box.y + box.height / 2;
    // --focus: #2563eb, at the left and right edges, where footprints and land are drawn.
    for (const x of [box.x + 1, box.x + box.width - 2]) {
      expect(await pixelAt(x, midY)).toEqual([37, 99, 235]);
    }
    await j.shot('06-focus-ring');
  });
});
