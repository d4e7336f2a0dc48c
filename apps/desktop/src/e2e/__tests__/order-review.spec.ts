/**
 * End to end, an order priced before it goes offline (issue 17, item 1): browser mode in
 * headless Chromium against the real reference service. The composer's "Preview price" gives
 * the service's price, the order is queued; the service goes away (the header says an order
 * waits for confirmation, nothing is quoted); back, the app quotes it by itself and the review
 * shows its price now beside the price then, "quoted at" its time; "Send 1 order (total X)"
 * sends it at that price. Screenshots in test-output/e2e/order-review/.
 */
import { describe, expect, it } from 'vitest';
import { writeGeoJson } from '../field-files';
import { FIELD_NEAR_BOLOGNA } from '../footprints';
import { useJourney } from '../harness';
import { daysAhead, eventually, importItemArea, queueOrder } from '../page-actions';

const NAME = 'E2E previewed field';
// Checks only when asked ("Check now"): no automatic batch races the review.
const j = useJourney('order-review', {
  service: { scenes: 40 },
  app: { connectivityIntervalMs: 600_000, connectivityOfflineIntervalMs: 600_000 },
});

const indicator = () => j.page.locator('header [data-test="connectivity-label"]');
const notice = () => j.page.locator('header [data-test="orders-review-notice"]');
const item = () => j.page.locator('[data-test="composer-item-0"]');

/** "Check now" on the Sync screen, until the header says `state`. */
async function checkNow(state: string): Promise<void> {
  await j.tab('sync');
  await j.page.locator('.sync').getByRole('button', { name: 'Check now' }).click();
  await eventually(() => indicator().textContent()).toBe(state);
}

describe('an order previewed online, queued, and confirmed after the service was away', () => {
  let previewTotal = '';

  it('previews the price online and queues the order', async () => {
    await j.app.call('settings.update', { serviceUrl: j.service.url, apiKey: j.apiKey });
    await j.page.goto(j.app.server.openUrl);
    await eventually(() => indicator().textContent()).toBe('Online');

    await j.tab('orders');
    await j.page.locator('[data-test="new-order"]').click();
    await item().locator('[data-test="field-name"]').fill(NAME);
    await item().locator('[data-test="field-project"]').fill('prj-demo-crops');
    await item().locator('[data-test="field-start"]').fill(daysAhead(7));
    await item().locator('[data-test="field-end"]').fill(daysAhead(37));
    await importItemArea(item(), writeGeoJson(j.filesDir, 'field.geojson', FIELD_NEAR_BOLOGNA));
    await j.page.locator('[data-test="preview-price"]').click();
    previewTotal = (await j.page.locator('[data-test="quote-total"]').textContent())!.trim();
    expect(previewTotal).toMatch(/^[\d,]+\.\d\d credits$/);
    expect(await j.page.locator('[data-test="quote-time"]').textContent()).toMatch(
      /^\s*Quoted at /,
    );
    await j.shot('01-preview');
    await queueOrder(j.page);
  });

  it('offline: the header says an order waits for confirmation; nothing is quoted or sent', async () => {
    await j.service.close();
    await checkNow('Offline');
    await eventually(() => notice().textContent()).toBe('1 order to confirm');
    await notice().click();
    expect(await j.page.locator('[data-test="review-status"]').textContent()).toContain(
      'The service is not reachable: they are quoted when the service is back',
    );
    expect(await j.page.locator('[data-test="send-orders"]').isDisabled()).toBe(true);
    await j.shot('02-offline-waiting');
  });

  it('back online: quoted by itself, the price then beside the price now; sent at that price', async () => {
    await j.restartService();
    await checkNow('Online');
    await eventually(() => notice().textContent()).toBe('Confirm 1 order');
    await notice().click();
    const row = j.page.locator('[data-test="review-order"]');
    await eventually(() => row.locator('[data-test="review-price"]').textContent()).toBe(
      previewTotal,
    );
    const change = (await row.locator('[data-test="review-change"]').textContent())!;
    expect(change).toContain(`Unchanged since it was queued (${previewTotal}, quoted at `);
    const send = j.page.locator('[data-test="send-orders"]');
    expect((await send.textContent())!.trim()).toBe(`Send 1 order (total ${previewTotal})`);
    await j.shot('03-review');

    const orders = () =>
      j.service.server.app.ctx.sqlite.prepare('SELECT count(*) FROM orders').pluck().get();
    expect(orders()).toBe(0);
    await send.click();
    const note = j.page.locator('[data-test="batch-notification"]');
    await note.waitFor({ timeout: 20_000 });
    expect(await note.locator('[data-test="notification-created"]').textContent()).toBe(
      '1 created.',
    );
    expect(orders()).toBe(1);
    const total = j.service.server.app.ctx.sqlite
      .prepare('SELECT total_amount FROM orders')
      .pluck()
      .get() as number;
    expect(Number(previewTotal.replace(/[^\d.]/g, ''))).toBeCloseTo(total, 2);
    await notice().waitFor({ state: 'detached' });
    await j.shot('04-sent');
  });
});
