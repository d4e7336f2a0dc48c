/**
 * Inspect and basket apart (issue 17, item 5), in headless Chromium against the real reference
 * service: a click opens a record without choosing it; the box and "Add to basket" fill the
 * basket; the basket survives a restart of the app and a search that hides one of its records
 * (marked "not in these results"); "Order…" of the basket queues an archive order, which takes
 * both records out with a notice; the list then badges them "Ordered". Screenshots in
 * test-output/e2e/basket-field/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney, WIDE } from '../harness';
import { addResultToBasket, eventually } from '../page-actions';

const SATELLITE = 'sat-aurora-1';
const PROJECT = 'prj-demo-crops';

const j = useJourney('basket-field', { page: WIDE, open: 'synced' });
/** Two demo records of one satellite (one bandset): the clearer one and the cloudier one. */
let clear: { id: string; cloud: number };
let cloudy: { id: string; cloud: number };

beforeAll(() => {
  const rows = j.service.server.app.ctx.sqlite
    .prepare(
      `SELECT c.id AS id, c.cloud_cover AS cloud FROM catalog_records c
       JOIN archive_scenes a ON a.id = c.item_id
       WHERE a.satellite_id = ? AND c.cloud_cover IS NOT NULL ORDER BY c.cloud_cover`,
    )
    .all(SATELLITE) as Array<{ id: string; cloud: number }>;
  clear = rows[0]!;
  cloudy = rows.at(-1)!;
  // A whole-percent limit lets the clear one through and not the cloudy one.
  expect(Math.floor(cloudy.cloud)).toBeGreaterThan(Math.ceil(clear.cloud));
});

const basketCount = () => j.page.locator('[data-test="basket-count"]').textContent();
const row = (id: string) => j.page.locator(`.results [data-id="${id}"]`);
const basketEntry = (id: string) => j.page.locator(`[data-basket-id="${id}"]`);

async function searchAll(): Promise<void> {
  await j.tab('catalog');
  await j.page.getByRole('button', { name: 'Search', exact: true }).click();
  await eventually(() => j.page.locator('[data-test="total"]').textContent()).toBe('10');
}

describe('inspect and basket in Chromium', () => {
  it('a click opens a record to look at it, without putting it in the basket', async () => {
    await searchAll();
    await row(clear.id).click();
    await eventually(() => j.page.locator('[data-test="detail"] small').textContent()).toBe(
      clear.id,
    );
    expect(await row(clear.id).getAttribute('aria-selected')).toBe('false');
    expect(await basketCount()).toBe('0');
    await j.shot('01-inspect-only');
  });

  it('the detail panel and the keyboard put records in the basket', async () => {
    await j.page.locator('[data-test="detail-basket"]').click();
    await eventually(() => row(clear.id).getAttribute('aria-selected')).toBe('true');
    await addResultToBasket(j.page, cloudy.id);
    await eventually(basketCount).toBe('2');
    expect(await j.page.locator('[data-test="selected-count"]').textContent()).toBe('2 in basket');
    await j.shot('02-basket-of-two');
  });

  it('keeps the basket across a restart of the app', async () => {
    await j.restartApp();
    await eventually(basketCount).toBe('2');
    expect(
      await j.page
        .locator('[data-basket-id]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-basket-id'))),
    ).toEqual([clear.id, cloudy.id]);
  });

  it('a search that hides a basket record keeps it in the basket, marked', async () => {
    await j.tab('catalog');
    await j.page.getByLabel('Max cloud cover (%)').fill(String(Math.ceil(clear.cloud)));
    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(() => row(cloudy.id).count()).toBe(0);
    await eventually(() => basketEntry(cloudy.id).textContent()).toContain('not in these results');
    expect(await basketEntry(clear.id).textContent()).not.toContain('not in these results');
    expect(await basketCount()).toBe('2');
    await j.shot('03-basket-record-hidden-by-search');
  });

  it('"Order…" takes the whole basket; queueing it empties the basket and badges the rows', async () => {
    await j.page.locator('[data-test="order-selection"]').click();
    const item = j.page.locator('[data-test="composer-item-0"]');
    await eventually(() => item.locator('[data-test="geometry-state"]').textContent()).toContain(
      'Footprints of 2 catalog records',
    );
    await item.locator('[data-test="field-name"]').fill('Basket scenes');
    await item.locator('[data-test="field-project"]').fill(PROJECT);
    await j.page.locator('[data-test="queue-order"]').click();
    await eventually(() => j.page.locator('[data-test="basket-notice"]').textContent()).toContain(
      '2 records left the basket: the queued order takes them.',
    );
    await j.shot('04-order-queued-basket-emptied');
    await j.page.getByRole('button', { name: 'Dismiss the basket notice' }).click();

    await j.tab('catalog');
    await j.page.getByLabel('Max cloud cover (%)').fill('');
    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(basketCount).toBe('0');
    for (const id of [clear.id, cloudy.id]) {
      await eventually(() => row(id).locator('[data-test="ordered-badge"]').count()).toBe(1);
      expect(await row(id).getAttribute('aria-selected')).toBe('false');
    }
    await j.shot('05-ordered-badges');
  });
});
