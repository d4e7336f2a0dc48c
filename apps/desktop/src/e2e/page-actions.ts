/**
 * What the end-to-end specs do in the page that Playwright has no one call for: waiting with a
 * bound fit for a busy machine, putting a catalog result in the basket with the keyboard, zooming a Leaflet
 * map one animated step at a time, and reading where a map's vector shapes are drawn. Code that
 * runs in the page is a string (this side has no DOM types).
 */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * `expect.poll` with a bound that suits a shared, busy machine (vitest's default is 1 s): the
 * page answers in milliseconds, but a loaded runner may stall it for a while.
 */
export const eventually = <T>(read: () => T | Promise<T>, timeout = 10_000) =>
  expect.poll(read, { timeout });

/**
 * How long the first file a test process reads may take: it starts the backend's reading thread,
 * which here loads `@eo/formats` from sources (5.2 s at load 12, past 10 s at load 14 in the
 * team-share journey; the app's built thread starts in about 0.1 s). Later reads take ~50 ms.
 */
const FIRST_READ_MS = 30_000;

/** Connects the app on `page` to the service in Settings (a first run opens there) and saves. */
export async function connect(page: Page, serviceUrl: string, apiKey: string): Promise<void> {
  await page.getByLabel('Service URL').fill(serviceUrl);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Save' }).click();
}

/** "Sync now" on the Sync screen, waiting up to `timeout` ms for its progress to end. */
export async function syncNow(page: Page, timeout = 30_000): Promise<void> {
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await page.locator('[data-test="progress"]').waitFor({ state: 'detached', timeout });
}

/** `connect`, then a first sync from the Sync screen, run to its end. */
export async function connectAndSync(page: Page, serviceUrl: string, apiKey: string) {
  await connect(page, serviceUrl, apiKey);
  await syncNow(page);
}

/** The catalog's result count as a number (NaN while it shows none). */
export async function resultTotal(page: Page): Promise<number> {
  return Number((await page.locator('[data-test="total"]').textContent())?.replace(/\D/g, ''));
}

/**
 * Puts a catalog result in the basket with the keyboard, as a list user would: Home, arrows
 * down to the row, Space puts it in (`aria-selected` is "in the basket"; Enter would only open
 * it).
 */
export async function addResultToBasket(page: Page, recordId: string): Promise<void> {
  const list = page.getByRole('listbox', { name: 'Search results' });
  const total = await resultTotal(page);
  await list.focus();
  await list.press('Home');
  for (let i = 0; i < total; i++) {
    await eventually(() => list.getAttribute('aria-activedescendant')).toBe(`result-row-${i}`);
    const row = page.locator(`#result-row-${i}`);
    await eventually(() => row.getAttribute('data-id')).not.toBeNull();
    if ((await row.getAttribute('data-id')) === recordId) {
      await list.press(' ');
      await eventually(() => row.getAttribute('aria-selected')).toBe('true');
      return;
    }
    await list.press('ArrowDown');
  }
  throw new Error(`${recordId} is not among the ${total} results`);
}

/** Opens a screen with its tab in the header (`data-screen`). */
export function openScreen(page: Page, screen: string): Promise<void> {
  return page.locator(`header [data-screen="${screen}"]`).click();
}

/**
 * Puts catalog records an order took out of the basket back in from the Catalog screen, each
 * once the list badges it ordered.
 */
export async function putOrderedBackInBasket(
  page: Page,
  records: ReadonlyArray<{ readonly id: string }>,
): Promise<void> {
  await openScreen(page, 'catalog');
  for (const { id } of records) {
    await eventually(() =>
      page.locator(`[data-id="${id}"] [data-test="ordered-badge"]`).count(),
    ).toBe(1);
    await addResultToBasket(page, id);
  }
}

/**
 * Imports an order item's area from a GeoJSON file of one feature (the file is read by the
 * backend: its area is the item's only once the form says so).
 */
export async function importItemArea(item: Locator, file: string): Promise<void> {
  await item.locator('[data-test="import-file"]').setInputFiles(file);
  await eventually(
    () => item.locator('[data-test="geometry-state"]').textContent(),
    FIRST_READ_MS,
  ).toContain(`1 feature · ${path.basename(file)}`);
}

/** "Queue order" in the order composer, until it says the order of `items` items is queued. */
export async function queueOrder(page: Page, items = 1): Promise<void> {
  await page.locator('[data-test="queue-order"]').click();
  await eventually(() => page.locator('[data-test="queued-message"]').textContent()).toContain(
    `Order (${items} ${items === 1 ? 'item' : 'items'}) is queued`,
  );
}

/**
 * Zooms the Leaflet map at `mapSelector` in by `steps` with the keyboard ("+"), one step at a
 * time: each press waits for the end of its zoom animation (a press during one is dropped).
 */
export async function zoomIn(page: Page, mapSelector: string, steps: number): Promise<void> {
  await page.evaluate(`(() => {
    const pane = document.querySelector(${JSON.stringify(mapSelector)} + ' .leaflet-map-pane');
    window.zoomsDone = 0;
    let animating = false;
    new MutationObserver(() => {
      const now = pane.classList.contains('leaflet-zoom-anim');
      if (animating && !now) window.zoomsDone += 1;
      animating = now;
    }).observe(pane, { attributes: true, attributeFilter: ['class'] });
  })()`);
  const map = page.locator(mapSelector);
  await map.focus();
  for (let k = 1; k <= steps; k++) {
    await map.press('+');
    await eventually(() => page.evaluate<number>('window.zoomsDone')).toBe(k);
  }
}

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A Leaflet map's box and the boxes of its vector shapes (SVG paths of the overlay pane). */
export async function drawnAreas(map: Locator): Promise<{ map: Box; areas: Box[] }> {
  return map.evaluate((el) => {
    const box = (r: Box): Box => ({ x: r.x, y: r.y, width: r.width, height: r.height });
    return {
      map: box(el.getBoundingClientRect()),
      areas: [...el.querySelectorAll('.leaflet-overlay-pane path')].map((p) =>
        box(p.getBoundingClientRect()),
      ),
    };
  });
}

/** The map shows shapes and every one lies inside it: they were brought into view. */
export async function areasInView(map: Locator): Promise<boolean> {
  const { map: m, areas } = await drawnAreas(map);
  return (
    areas.length > 0 &&
    areas.every(
      (a) =>
        a.x >= m.x &&
        a.y >= m.y &&
        a.x + a.width <= m.x + m.width &&
        a.y + a.height <= m.y + m.height,
    )
  );
}

/** `<input type="datetime-local">` value of a day from now at 08:00 local time. */
export function daysAhead(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T08:00`;
}

/** Painted pixels on the catalog's footprint layer (its base canvas); -1 with no canvas yet. */
export function footprintInk(page: Page): Promise<number> {
  return page.evaluate<number>(`(() => {
    const canvas = document.querySelector('.leaflet-eo-footprints-pane canvas');
    if (!canvas) return -1;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;
    return ink;
  })()`);
}

/** What the AOI form is filled with: the area comes from a GeoJSON file, one archive scene. */
export interface AoiFields {
  readonly name: string;
  readonly description?: string;
  readonly satelliteId: string;
  readonly provider: string;
  readonly projectId: string;
  /** A GeoJSON file with the area. */
  readonly areaFile: string;
  readonly sceneId: string;
}

/**
 * Fills the open "Create an AOI" form (the area imported from `areaFile`, read before the scene
 * id is typed) without queueing it: the caller may take a screenshot first, then `queueAoi`.
 */
export async function fillAoiForm(page: Page, aoi: AoiFields): Promise<void> {
  await page.locator('[data-test="aoi-name"]').fill(aoi.name);
  if (aoi.description) await page.locator('[data-test="aoi-description"]').fill(aoi.description);
  await page.locator('[data-test="aoi-satellite"]').fill(aoi.satelliteId);
  await page.locator('[data-test="aoi-provider"]').fill(aoi.provider);
  await page.locator('[data-test="aoi-project"]').fill(aoi.projectId);
  await page.locator('[data-test="aoi-import"]').setInputFiles(aoi.areaFile);
  await eventually(
    () => page.locator('[data-test="aoi-geometry-state"]').textContent(),
    FIRST_READ_MS,
  ).toContain(`Polygon (1 part) · ${path.basename(aoi.areaFile)}`);
  await page.locator('[data-test="aoi-item-ids"]').fill(aoi.sceneId);
}

/** "Queue AOI", until the form says the AOI named `name` is queued. */
export async function queueAoi(page: Page, name: string): Promise<void> {
  await page.locator('[data-test="queue-aoi"]').click();
  await eventually(() => page.locator('[data-test="aoi-queued-message"]').textContent()).toContain(
    `AOI "${name}" is queued`,
  );
}
