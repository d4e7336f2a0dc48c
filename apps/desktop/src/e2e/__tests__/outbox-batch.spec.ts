/**
 * End to end, the outbox of "Desktop app, part 2": browser mode (the built renderer in headless
 * Chromium) against the real reference service. With the service stopped, a field team
 * composes three orders (from the catalog selection, a tasking area drawn on the map, a
 * recurring area from a GeoJSON file), an order the service will refuse (a project it removed
 * after the sync) with a delivery of its item, an AOI with a visualization on it, and a delivery of the
 * catalog selection. The app restarts with the outbox intact; the service comes back, the
 * app quotes the queued orders for review (the refused one says why it cannot be quoted), "Send
 * 3 orders" sends them with the free creates, and the service holds exactly those resources once
 * each (the visualization on the new AOI's real id), while the refused order and its delivery
 * wait for the user. Screenshots of every step land in
 * test-output/e2e/outbox-batch/.
 */
import type { Polygon } from '@eo/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEntryView, OutboxList } from '../../shared/contract';
import { writeGeoJson } from '../field-files';
import { FIELD_NEAR_BOLOGNA, insideOf, recordsOf, type DemoRecord } from '../footprints';
import { listOutbox, useJourney } from '../harness';
import {
  addResultToBasket,
  areasInView,
  daysAhead,
  drawnAreas,
  eventually,
  fillAoiForm,
  importItemArea,
  putOrderedBackInBasket,
  queueAoi,
  queueOrder,
  zoomIn,
} from '../page-actions';

/** Names that identify what this test created, on the service and in the outbox. */
const NAMES = {
  archive: 'E2E archive pair',
  tasking: 'E2E tasking drawn',
  recurring: 'E2E weekly monitoring',
  refused: 'E2E unknown project',
  aoi: 'E2E field AOI',
} as const;
const PROJECT = 'prj-demo-crops';
/**
 * A project the service lists when the app syncs (so the composer, which flags ids outside the
 * service's lists, takes it) and has removed by the time the orders are sent.
 */
const GONE_PROJECT = 'prj-gone';
const INDEX_ID = 'idx-ndvi-aurora';
const SATELLITE = 'sat-aurora-1';
const CATALOG_PATH = 'exports/field-a';
const REFUSED_PATH = 'exports/refused';

// Checks every 500 ms so the indicator follows the service going away within the test's time.
const j = useJourney('outbox-batch', { app: { connectivityIntervalMs: 500 } });
/** Two demo records of sat-aurora-1: an archive item of one satellite has a common bandset. */
let records: DemoRecord[];

beforeAll(() => {
  const sqlite = j.service.server.app.ctx.sqlite;
  records = recordsOf(sqlite, SATELLITE, 2);
  expect(records).toHaveLength(2);
  const row = sqlite.prepare('SELECT * FROM projects WHERE id = ?').get(PROJECT) as object;
  const gone: Record<string, unknown> = { ...row, id: GONE_PROJECT };
  if ('name' in gone) gone.name = 'Gone before the send';
  const cols = Object.keys(gone);
  sqlite
    .prepare(
      `INSERT INTO projects (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`,
    )
    .run(gone);
});

/** A GeoJSON file of one area, the feature named after the file. */
const areaFile = (name: string, polygon: Polygon) =>
  writeGeoJson(j.filesDir, name, polygon, { name });

const indicator = () => j.page.locator('header [data-test="connectivity-label"]');
const composerItem = () => j.page.locator('[data-test="composer-item-0"]');
const outboxCards = () => j.page.locator('[data-test="outbox-entry"]');
const card = (id: string) => j.page.locator(`[data-test="outbox-entry"][data-id="${id}"]`);
const badge = () => j.page.locator('[data-test="outbox-badge"]');
/** The composer's map (GeometryMap's Leaflet container on the Orders screen). */
const COMPOSER_MAP = '.orders__map [role="application"]';
const composerMap = () => j.page.locator(COMPOSER_MAP);

const outboxList = () => listOutbox(j.app);

function orderNamed(list: OutboxList, name: string): OutboxEntryView {
  const found = list.entries.filter(
    (e) =>
      e.kind === 'order' &&
      (e.input['order_items'] as Array<{ name: string }>).some((i) => i.name === name),
  );
  expect(found, `order entry "${name}"`).toHaveLength(1);
  return found[0]!;
}

function onlyOf(
  list: OutboxList,
  kind: OutboxEntryView['kind'],
  test = (_e: OutboxEntryView) => true,
) {
  const found = list.entries.filter((e) => e.kind === kind && test(e));
  expect(found, `${kind} entry`).toHaveLength(1);
  return found[0]!;
}

/** A delivery of catalog records (the other one delivers an order item). */
const catalogDelivery = (e: OutboxEntryView) =>
  (e.input['deliveries'] as Array<{ catalog_ids?: string[] }>).some((d) => d.catalog_ids);

/** Fills the fields every order item needs; the area and the kind's own fields are the caller's. */
async function nameAndProject(name: string, project: string): Promise<void> {
  await composerItem().locator('[data-test="field-name"]').fill(name);
  await composerItem().locator('[data-test="field-project"]').fill(project);
}

/** What a person sees of the outbox: each card's id, state and summary. */
async function cardsShown(): Promise<Array<{ id: string; state: string; summary: string }>> {
  return outboxCards().evaluateAll((cards) =>
    cards.map((c) => ({
      id: c.getAttribute('data-id') ?? '',
      state: c.getAttribute('data-state') ?? '',
      summary: c.querySelector('[data-test="entry-summary"]')?.textContent?.trim() ?? '',
    })),
  );
}

describe('EO Field Desk: offline creates through the outbox, submitted in one batch', () => {
  it('connects, syncs the catalog and the indices, then loses the service', async () => {
    await j.app.call('settings.update', { serviceUrl: j.service.url, apiKey: j.apiKey });
    await j.page.goto(j.app.server.openUrl);
    await eventually(() => indicator().textContent()).toBe('Online');

    await j.tab('sync');
    await j.page.getByRole('button', { name: 'Sync now' }).click();
    const count = (resource: string) =>
      j.page.locator(`tr[data-resource="${resource}"] td.num`).textContent();
    // 200 scenes: every 20th is a demo catalog record; the presets are the service's indices.
    await eventually(() => count('catalogs'), 20_000).toBe('10');
    await eventually(() => count('indices')).not.toBe('0');
    await j.page.locator('[data-test="progress"]').waitFor({ state: 'detached' });

    await j.service.close();
    await eventually(() => indicator().textContent()).toBe('Offline');
    await j.shot('01-synced-then-offline');
  });

  it('puts two aurora-1 records in the basket, with the keyboard', async () => {
    await j.tab('catalog');
    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(() => j.page.locator('[data-test="total"]').textContent()).toContain('10');
    for (const r of records) await addResultToBasket(j.page, r.id);
    expect(await j.page.locator('[data-test="selected-count"]').textContent()).toBe('2 in basket');
    expect(await j.page.locator('[data-test="basket-count"]').textContent()).toBe('2');
    await j.shot('02-catalog-selection');
  });

  it('order 1: a tasking item whose area is drawn on the map', async () => {
    await j.tab('orders');
    await j.page.locator('[data-test="new-order"]').click();
    expect(await composerItem().locator('[data-test="field-kind"]').inputValue()).toBe('tasking');
    await nameAndProject(NAMES.tasking, PROJECT);
    await composerItem().locator('[data-test="field-start"]').fill(daysAhead(7));
    await composerItem().locator('[data-test="field-end"]').fill(daysAhead(37));

    // The map opens over West Africa; closer in first, so the area is a field, not a country.
    await zoomIn(j.page, COMPOSER_MAP, 6);
    await composerItem().locator('[data-test="draw"]').click();
    // The hint asks for corners once the drawing tool is loaded (clicks before it would be lost).
    await eventually(() => j.page.locator('[data-test="draw-hint"]').textContent()).toContain(
      'Click on the map to add corners',
    );
    const box = (await composerMap().boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    for (const [dx, dy] of [
      [-70, -50],
      [70, -50],
      [70, 50],
      [-70, 50],
    ] as const) {
      await j.page.mouse.click(cx + dx, cy + dy);
    }
    // Each corner gets a marker; clicking the first one closes the polygon.
    const corners = composerMap().locator('.marker-icon:not(.cursor-marker)');
    await eventually(() => corners.count()).toBe(4);
    await corners.first().click();
    await eventually(() =>
      composerItem().locator('[data-test="geometry-state"]').textContent(),
    ).toContain('1 feature · Drawn on the map');
    await j.shot('03-order-tasking-drawn');
    await queueOrder(j.page);
  });

  it('order 2: an archive item from the two catalog records in the basket, which it empties', async () => {
    // The composer stays open with an empty item for the next order.
    await composerItem().locator('[data-test="field-kind"]').selectOption('archive');
    await composerItem().locator('[data-test="use-selection"]').click();
    await eventually(() =>
      composerItem().locator('[data-test="geometry-state"]').textContent(),
    ).toContain('Footprints of 2 catalog records');
    expect(
      (await composerItem().locator('[data-test="field-item-ids"]').inputValue()).split('\n'),
    ).toEqual(records.map((r) => r.sceneId));
    // The map brings the two footprints into view (far apart as they are).
    await eventually(() => areasInView(composerMap())).toBe(true);
    await nameAndProject(NAMES.archive, PROJECT);
    await j.shot('04-order-archive');
    await queueOrder(j.page);
    // The order took both records: the basket says so and lets them go (no ordering twice).
    await eventually(() => j.page.locator('[data-test="basket-notice"]').textContent()).toContain(
      '2 records left the basket: the queued order takes them.',
    );
    // The basket as this screen shows it (the catalog's basket panel is not on the page while the
    // Orders screen is): the next item has nothing in the basket to use, and says why.
    await eventually(() => composerItem().locator('[data-test="use-selection"]').isDisabled()).toBe(
      true,
    );
    expect(await composerItem().locator('[data-test="use-selection-reason"]').isVisible()).toBe(
      true,
    );
    await j.page.getByRole('button', { name: 'Dismiss the basket notice' }).click();
  });

  it('order 3: a weekly recurring item whose area comes from a GeoJSON file', async () => {
    await composerItem().locator('[data-test="field-kind"]').selectOption('recurring');
    await nameAndProject(NAMES.recurring, PROJECT);
    await importItemArea(composerItem(), areaFile('field.geojson', FIELD_NEAR_BOLOGNA));
    // The imported field comes into view, as a field (not the dot that marks small areas).
    await eventually(() => areasInView(composerMap())).toBe(true);
    expect(
      Math.max(...(await drawnAreas(composerMap())).areas.map((a) => a.width)),
    ).toBeGreaterThan(100);
    // Five weeks: four weekly windows fit.
    await composerItem().locator('[data-test="field-start"]').fill(daysAhead(7));
    await composerItem().locator('[data-test="field-end"]').fill(daysAhead(42));
    await composerItem().locator('[data-test="field-recurrence"]').selectOption('WEEKLY');
    await composerItem().locator('[data-test="field-occurrences"]').fill('4');
    await j.shot('05-order-recurring-imported');
    await queueOrder(j.page);
  });

  it("order 4 (the service will refuse its project) and a delivery of that order's item", async () => {
    await nameAndProject(NAMES.refused, GONE_PROJECT);
    await importItemArea(composerItem(), areaFile('refused.geojson', FIELD_NEAR_BOLOGNA));
    await composerItem().locator('[data-test="field-start"]').fill(daysAhead(7));
    await composerItem().locator('[data-test="field-end"]').fill(daysAhead(37));
    await queueOrder(j.page);

    await j.tab('deliveries');
    await j.page.getByRole('radio', { name: /Order items/ }).check();
    const option = j.page
      .locator('[data-test="queued-order-item"]')
      .filter({ hasText: `${NAMES.refused} (queued order)` });
    await option.getByRole('checkbox').check();
    await j.page.getByLabel('Cloud location configuration').fill('s3-field-bucket');
    await j.page.getByLabel('Path in that location').fill(REFUSED_PATH);
    await j.shot('06-delivery-of-queued-order');
    await j.page.locator('[data-test="queue-delivery"]').click();
    await eventually(() => j.page.locator('[data-test="form-done"]').textContent()).toBe(
      `Queued: delivery of 1 order item to ${REFUSED_PATH}.`,
    );

    // The delivery names the queued order's first item by local id.
    const list = await outboxList();
    const refused = orderNamed(list, NAMES.refused);
    const delivery = onlyOf(list, 'delivery');
    expect(delivery.input).toEqual({
      deliveries: [
        {
          order_item_ids: [`local:${refused.id}#0`],
          cloud_info: { config: 's3-field-bucket', path: REFUSED_PATH },
        },
      ],
    });
    expect(delivery.dependsOn).toEqual([refused.id]);
  });

  it('an AOI over an aurora-1 scene, from a GeoJSON file and the scene id', async () => {
    await j.tab('aois');
    await j.page.locator('[data-test="new-aoi"]').click();
    await fillAoiForm(j.page, {
      name: NAMES.aoi,
      description: 'Inside one archive scene',
      satelliteId: SATELLITE,
      provider: 'field-team',
      projectId: PROJECT,
      areaFile: areaFile('aoi.geojson', insideOf(records[0]!.footprint)),
      sceneId: records[0]!.sceneId,
    });
    await j.shot('07-aoi');
    await queueAoi(j.page, NAMES.aoi);
  });

  it('a visualization (NDVI) on the queued AOI, of all its scenes once it exists', async () => {
    await j.tab('indices');
    await j.page.getByRole('tab', { name: 'Visualizations' }).click();
    const form = j.page.locator('[data-test="visualization-form"]');
    await form.locator('select[name="aoi"]').selectOption({ label: `${NAMES.aoi} (queued)` });
    await form.locator('select[name="index"]').selectOption(INDEX_ID);
    await form.locator('[data-test="sources-queued"]').waitFor();
    await j.shot('08-visualization');
    await form.locator('[data-test="queue-visualization"]').click();
    await eventually(() => form.locator('[data-test="form-done"]').textContent()).toBe(
      `Queued: NDVI on ${NAMES.aoi} (queued).`,
    );

    const list = await outboxList();
    const aoi = onlyOf(list, 'aoi');
    const vis = onlyOf(list, 'visualization');
    expect(vis.input).toEqual({
      aoi_id: `local:${aoi.id}`,
      index_id: INDEX_ID,
      src_asset_ids: [`local:${aoi.id}#scenes`],
    });
    expect(vis.dependsOn).toEqual([aoi.id]);
  });

  it('a delivery of the basket; the outbox lists everything queued with its dependencies', async () => {
    // The archive order emptied the basket; its scenes are marked ordered. Put them back.
    await putOrderedBackInBasket(j.page, records);
    await j.tab('deliveries');
    await j.page.getByRole('radio', { name: /Catalog records in the basket \(2\)/ }).check();
    expect(await j.page.locator('[data-test="catalog-ids"] li').allTextContents()).toEqual(
      records.map((r) => r.id),
    );
    await j.page.getByLabel('Cloud location configuration').fill('s3-field-bucket');
    await j.page.getByLabel('Path in that location').fill(CATALOG_PATH);
    await j.page.locator('[data-test="queue-delivery"]').click();
    await eventually(() => j.page.locator('[data-test="form-done"]').textContent()).toBe(
      `Queued: delivery of 2 catalog records to ${CATALOG_PATH}.`,
    );
    await j.shot('09-delivery-of-catalog-selection');

    await j.tab('outbox');
    await eventually(() => outboxCards().count()).toBe(8);
    expect(new Set((await cardsShown()).map((c) => c.state))).toEqual(new Set(['queued']));
    expect(await badge().textContent()).toBe('8');
    expect(await badge().getAttribute('aria-label')).toBe('8 waiting to be sent');
    expect(await j.page.locator('[data-test="submit-reason"]').textContent()).toContain(
      'The service is not reachable',
    );

    const list = await outboxList();
    const vis = onlyOf(list, 'visualization');
    const refusedDelivery = onlyOf(list, 'delivery', (e) => !catalogDelivery(e));
    await eventually(() =>
      card(vis.id).locator('[data-test="depends-on"]').textContent(),
    ).toContain(`AOI · ${NAMES.aoi}`);
    await eventually(() =>
      card(refusedDelivery.id).locator('[data-test="depends-on"]').textContent(),
    ).toContain(`Order · 1 item: ${NAMES.refused}`);
    await card(vis.id).scrollIntoViewIfNeeded();
    await j.shot('10-outbox-queued');
  });

  let beforeRestart: Array<{ id: string; state: string; summary: string }> = [];

  it('after a restart of the app the outbox is intact: same entries, states and count', async () => {
    await j.tab('outbox');
    beforeRestart = await cardsShown();
    const listBefore = await outboxList();
    expect(beforeRestart).toHaveLength(8);

    // Checks every 10 minutes, also while offline: the first check at start, then none during
    // the test, so no automatic batch races "Submit all" when the service is back ("Check now"
    // says Online).
    await j.restartApp({
      app: { connectivityIntervalMs: 600_000, connectivityOfflineIntervalMs: 600_000 },
      newPage: true,
    });
    await eventually(() => indicator().textContent()).toBe('Offline');
    await j.tab('outbox');
    await eventually(() => outboxCards().count()).toBe(8);
    expect(await cardsShown()).toEqual(beforeRestart);
    expect(await badge().textContent()).toBe('8');

    const listAfter = await outboxList();
    const essentials = (l: OutboxList) =>
      l.entries.map((e) => ({
        id: e.id,
        kind: e.kind,
        state: e.state,
        input: e.input,
        dependsOn: e.dependsOn,
        attempts: e.attempts,
      }));
    expect(essentials(listAfter)).toEqual(essentials(listBefore));
    expect(listAfter.counts).toEqual(listBefore.counts);
    await j.shot('11-outbox-after-restart');
  });

  it('with the service back: the queued orders are quoted for review and sent once confirmed', async () => {
    // The app's own checks at start (the watcher's and the screen's) retry for up to 2 s: one
    // still in flight when the service is back would find it online and auto-flush the free
    // creates before the confirmation. They end (offline) before the service returns.
    await j.app.backend.idle();
    await j.restartService();
    // Removed before the app has asked anything of the service back (synchronously, here).
    j.service.server.app.ctx.sqlite.prepare('DELETE FROM projects WHERE id = ?').run(GONE_PROJECT);
    await j.tab('sync');
    await j.page.locator('.sync').getByRole('button', { name: 'Check now' }).click();
    await eventually(() =>
      j.page.locator('.sync [data-test="connectivity-label"]').textContent(),
    ).toBe('Online');
    await eventually(() => indicator().textContent()).toBe('Online');

    // Whatever screen is open, the header says orders wait; the app quotes them by itself.
    const notice = j.page.locator('header [data-test="orders-review-notice"]');
    await eventually(() => notice.textContent()).toBe('Confirm 4 orders');
    await notice.click();
    const review = j.page.locator('[data-test="order-review"]');
    const rows = review.locator('[data-test="review-order"]');
    await eventually(() => rows.count()).toBe(4);
    await eventually(() => review.locator('[data-test="review-status"]').textContent()).toContain(
      'Prices quoted at',
    );
    expect(await rows.locator('[data-test="review-name"]').allTextContents()).toEqual([
      NAMES.tasking,
      NAMES.archive,
      NAMES.recurring,
      NAMES.refused,
    ]);
    const prices = await rows.locator('[data-test="review-price"]').allTextContents();
    for (const p of prices.slice(0, 3)) expect(p).toMatch(/^[\d,]+\.\d\d credits$/);
    expect(prices[3]).toBe(
      `Not quoted, the service refused it: Item 1 › Project: Unknown project "${GONE_PROJECT}"`,
    );
    // Composed offline: no price to compare with.
    expect(
      new Set((await rows.locator('[data-test="review-change"]').allTextContents()).slice(0, 3)),
    ).toEqual(new Set(['Not priced offline: queued without a price preview.']));
    expect(await rows.nth(3).locator('[data-test="review-pick"]').isDisabled()).toBe(true);
    expect(await rows.nth(3).locator('[data-test="review-dependents"]').textContent()).toBe(
      '1 entry waits for it (sent after it).',
    );
    const amount = (t: string) => Number(t.replace(/[^\d.]/g, ''));
    const total = prices.slice(0, 3).reduce((sum, p) => sum + amount(p), 0);
    const send = review.locator('[data-test="send-orders"]');
    const label = (await send.textContent())!.trim();
    expect(label).toMatch(/^Send 3 orders \(total [\d,]+\.\d\d credits\)$/);
    expect(amount(label.replace(/^Send 3 orders/, ''))).toBeCloseTo(total, 2);
    expect(await j.page.locator('[data-test="submit-all"]').textContent()).toContain(
      'Submit all but orders (3)',
    );
    // Nothing paid left before the confirmation.
    const ordersOnService = () =>
      j.service.server.app.ctx.sqlite.prepare('SELECT count(*) FROM orders').pluck().get();
    expect(ordersOnService()).toBe(0);
    await j.shot('12-order-review');

    await send.click();
    const note = j.page.locator('[data-test="batch-notification"]');
    await note.waitFor({ timeout: 20_000 });
    // The three confirmed orders and the three free creates; the refused order and its delivery
    // wait for the user (to correct its project or cancel it).
    expect(await note.locator('[data-test="notification-created"]').textContent()).toBe(
      '6 created.',
    );
    expect(await note.locator('[data-test="notification-attention"]').count()).toBe(0);
    expect(ordersOnService()).toBe(3);
    await eventually(() => notice.textContent()).toBe('Confirm 1 order');
    await eventually(() => rows.count()).toBe(1);
    await j.shot('13-batch-notification');
  });

  it('the service holds exactly those resources once each; the refused order and its delivery wait', async () => {
    const sqlite = j.service.server.app.ctx.sqlite;
    const list = await outboxList();

    // Orders: one each, nothing of the refused one.
    const items = sqlite
      .prepare(
        'SELECT order_id, name, type, project_id, item_ids_json, no_of_occurrences FROM order_items ORDER BY seq',
      )
      .all() as Array<{
      order_id: string;
      name: string;
      type: string;
      project_id: string;
      item_ids_json: string | null;
      no_of_occurrences: number;
    }>;
    // Sent first in, first out.
    expect(items.map((i) => [i.name, i.type])).toEqual([
      [NAMES.tasking, 'TASKING'],
      [NAMES.archive, 'ARCHIVE'],
      [NAMES.recurring, 'RECURRING'],
    ]);
    expect(new Set(items.map((i) => i.project_id))).toEqual(new Set([PROJECT]));
    expect(JSON.parse(items[1]!.item_ids_json!)).toEqual(records.map((r) => r.sceneId));
    expect(items[2]!.no_of_occurrences).toBe(4);
    // The tasking area is the polygon drawn with four clicks (closed: five positions).
    const drawn = JSON.parse(
      sqlite
        .prepare('SELECT geometry_json FROM order_items WHERE name = ?')
        .pluck()
        .get(NAMES.tasking) as string,
    ) as { features: Array<{ geometry: Polygon }> };
    expect(drawn.features).toHaveLength(1);
    expect(drawn.features[0]!.geometry.coordinates[0]).toHaveLength(5);
    const orderIds = sqlite.prepare('SELECT id FROM orders ORDER BY seq').pluck().all() as string[];
    expect(orderIds).toHaveLength(3);
    for (const [k, name] of [NAMES.tasking, NAMES.archive, NAMES.recurring].entries()) {
      const entry = orderNamed(list, name);
      expect(entry.state).toBe('sent');
      expect(entry.remoteId).toBe(items[k]!.order_id);
    }

    // The AOI once; the visualization once, on the AOI's real id, of its scene asset.
    const aois = sqlite.prepare('SELECT id, name, satellite_id FROM aois').all() as Array<{
      id: string;
      name: string;
      satellite_id: string;
    }>;
    expect(aois).toEqual([expect.objectContaining({ name: NAMES.aoi, satellite_id: SATELLITE })]);
    const aoiId = aois[0]!.id;
    expect(onlyOf(list, 'aoi').remoteId).toBe(aoiId);
    const sceneAssets = sqlite
      .prepare("SELECT id FROM assets WHERE aoi_id = ? AND asset_type = 'scene'")
      .pluck()
      .all(aoiId) as string[];
    expect(sceneAssets).toHaveLength(1);
    const visualizations = sqlite
      .prepare('SELECT id, aoi_id, index_id, src_asset_ids_json FROM visualizations')
      .all() as Array<{ id: string; aoi_id: string; index_id: string; src_asset_ids_json: string }>;
    expect(visualizations).toHaveLength(1);
    expect(visualizations[0]).toMatchObject({ aoi_id: aoiId, index_id: INDEX_ID });
    expect(JSON.parse(visualizations[0]!.src_asset_ids_json)).toEqual(sceneAssets);
    expect(onlyOf(list, 'visualization').remoteId).toBe(visualizations[0]!.id);

    // Deliveries: the two selected records once each, none of the refused order's item.
    const deliveries = sqlite
      .prepare('SELECT id, catalog_id, order_item_id, cloud_path FROM deliveries ORDER BY seq')
      .all() as Array<{
      id: string;
      catalog_id: string | null;
      order_item_id: string | null;
      cloud_path: string;
    }>;
    expect(deliveries.map((d) => [d.catalog_id, d.order_item_id, d.cloud_path])).toEqual(
      records.map((r) => [r.id, null, CATALOG_PATH]),
    );
    expect(onlyOf(list, 'delivery', catalogDelivery).remoteId).toBe(
      deliveries.map((d) => d.id).join(','),
    );

    // In the outbox: the refused order was never sent (its quote said why), nor its delivery.
    const refused = orderNamed(list, NAMES.refused);
    const waiting = onlyOf(list, 'delivery', (e) => !catalogDelivery(e));
    expect(refused).toMatchObject({ state: 'queued', attempts: 0, remoteId: null });
    expect(waiting).toMatchObject({ state: 'queued', attempts: 0 });
    expect(list.counts).toMatchObject({ sent: 6, failed: 0, blocked: 0, queued: 2, sending: 0 });

    await j.page.locator('[data-test="batch-notification"] [data-test="dismiss"]').click();
    await eventually(() => card(refused.id).getAttribute('data-state')).toBe('queued');
    expect(await badge().textContent()).toBe('2');
    expect(await j.page.locator('[data-test="outbox-attention"]').count()).toBe(0);
    expect(await j.page.locator('[data-test="outbox-counts"]').textContent()).toContain('6 sent');
    await j.shot('14-outbox-after-batch');

    // The sent orders are in the mirror: the Orders screen lists them beside the refused one.
    await j.tab('orders');
    for (const id of orderIds) {
      await j.page.locator(`[data-test="order-row-${id}"]`).waitFor();
    }
    await j.shot('15-orders-after-batch');
  });
});
