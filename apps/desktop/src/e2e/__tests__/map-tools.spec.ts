/**
 * The catalog map's tools (issue 18) in headless Chromium: "Near me" with Chromium's
 * geolocation override (permission granted) and as a search area, a rectangle drawn with the
 * mouse with its area live while it is dragged out (two clicks, or pressed, dragged and
 * released), a circle of a typed radius, a box typed with the keyboard alone (drawing without a
 * mouse), and the filter panel's UTC date rule and presets. Screenshots in
 * test-output/e2e/map-tools/.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney, WIDE } from '../harness';
import { eventually } from '../page-actions';

/** Geneva, where the device says it is (geolocation permission granted). */
const HERE = { latitude: 46.2044, longitude: 6.1432 };

const j = useJourney('map-tools', {
  service: { scenes: 60, bulkRecords: 60 },
  page: { ...WIDE, permissions: ['geolocation'], geolocation: HERE },
  open: 'synced',
});

beforeAll(() => j.page.getByRole('button', { name: 'Catalog', exact: true }).click());

const inCatalog = (test: string) => j.page.locator(`.catalog [data-test="${test}"]`);
const mapBox = async () => (await j.page.locator('.catalog .map-frame__map').boundingBox())!;
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
        j.page.getByLabel('An area drawn on the map (polygon, rectangle or circle)').isChecked(),
      )
      .toBe(true);
    await j.shot('01-near-me-circle');
  });

  it('draws a rectangle with the mouse, its area live while dragged out', async () => {
    await j.page.locator('.catalog [data-test="goto-input"]').fill('46.2, 6.15');
    await j.page.locator('.catalog [data-test="goto-input"]').press('Enter');
    await inCatalog('draw-rectangle').click();
    await eventually(() => inCatalog('draw-hint').textContent()).toMatch(/opposite corner/);
    const box = await mapBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await j.page.mouse.click(cx - 150, cy - 100);
    await j.page.mouse.move(cx + 60, cy + 40, { steps: 4 });
    const live = km2Of(await eventually(areaText).toMatch(/km²/).then(areaText));
    await j.page.mouse.move(cx + 150, cy + 100, { steps: 4 });
    await eventually(async () => km2Of(await areaText())).toBeGreaterThan(live);
    await j.shot('02-rectangle-live');
    await j.page.mouse.click(cx + 150, cy + 100);
    await eventually(() => inCatalog('draw-edit-hint').isVisible()).toBe(true);
    await j.shot('03-rectangle-drawn');
  });

  it('draws a rectangle dragged out (press, drag, release), the map held still', async () => {
    const clicked = km2Of(await areaText());
    expect(clicked).toBeGreaterThan(0);
    await inCatalog('draw-rectangle').click();
    await eventually(() => inCatalog('draw-hint').textContent()).toMatch(/drag from corner/);
    const box = await mapBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // Half the clicked one's width and height (300 × 200 px): a quarter of its area.
    await j.page.mouse.move(cx - 75, cy - 50);
    await j.page.mouse.down();
    await j.page.mouse.move(cx + 75, cy + 50, { steps: 6 });
    await eventually(async () => km2Of(await areaText())).toBeGreaterThan(0);
    await j.page.mouse.up();
    await eventually(() => inCatalog('draw-edit-hint').isVisible()).toBe(true);
    const dragged = km2Of(await areaText());
    expect(dragged / clicked).toBeGreaterThan(0.2);
    expect(dragged / clicked).toBeLessThan(0.3);
    await j.shot('03b-rectangle-dragged');
  });

  it('places a circle of the typed radius, and warns on a tiny one', async () => {
    await inCatalog('draw-radius').fill('0.05');
    await inCatalog('draw-circle').click();
    const box = await mapBox();
    await j.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await eventually(() => areaText()).toMatch(/Very small .*returns every scene touching it/);
    await j.shot('04-circle-small');
  });

  it('takes an area typed with the keyboard alone: a box, searched like a drawn one', async () => {
    const type = inCatalog('draw-type');
    await type.focus();
    await j.page.keyboard.press('Enter');
    // The form opens with the focus in its text box.
    await eventually(() => j.page.locator(':focus').getAttribute('data-test')).toBe(
      'draw-type-text',
    );
    await j.page.keyboard.type('6.10, 46.18, 6.20, 46.24');
    await j.page.keyboard.press('Tab'); // to "Use this area"
    await j.page.keyboard.press('Enter');
    // 0.1° × 0.06° at 46.2° N: ~7.7 km × 6.7 km ≈ 51.5 km².
    await eventually(async () => km2Of(await areaText())).toBeGreaterThan(50);
    expect(km2Of(await areaText())).toBeLessThan(53);
    expect(await inCatalog('draw-type-form').count()).toBe(0);
    await j.shot('05-typed-box');
  });

  it('says the dates are UTC days, with presets', async () => {
    await j.page.locator('[data-test="date-preset-last30"]').click();
    await eventually(async () =>
      (await j.page.locator('[data-test="date-rule"]').textContent())?.replace(/\s+/g, ' ').trim(),
    ).toMatch(/^Searches \d{4}-\d\d-\d\d 00:00 to \d{4}-\d\d-\d\d 23:59 UTC\.$/);
    await j.page
      .locator('.catalog__side')
      .screenshot({ path: path.join(j.shotDir, '06-filters.png') });
  });
});
