/**
 * A whole field day as a new user lives it (issue 17), in headless Chromium against the real
 * reference service: the first run shows the catalog with its footprints without pressing
 * anything (item 6); a later sync refreshes the Catalog's count without pressing Search (item 7);
 * records go into the basket; "Work offline" is switched on and all six kinds of create are
 * composed (an order of archive items from the basket, an AOI, a custom index, a visualization,
 * a delivery, a job); the app restarts on the same data folder; "Work offline" is switched off,
 * the order is reviewed and confirmed, everything is submitted. Then: the service holds each
 * create exactly once, every created record reaches a final state (or says why it failed), the
 * Settings text about the key is true for browser mode (item 9) and switching the service URL
 * says the mirror holds the old service's data (item 10). Screenshots in
 * test-output/e2e/field-day/.
 */
import { isFinalStatus } from '@eo/domain';
import { DEMO } from '@eo/fixtures';
import { insertCatalogRecords } from '@eo/reference-service';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGeoJson } from '../field-files';
import { insideOf, recordsOf, type DemoRecord } from '../footprints';
import {
  listOutbox,
  type ReferenceService,
  seedService,
  startReferenceService,
  useJourney,
} from '../harness';
import {
  addResultToBasket,
  connect,
  eventually,
  fillAoiForm,
  footprintInk,
  putOrderedBackInBasket,
  queueAoi,
  queueOrder,
  syncNow,
} from '../page-actions';

const SATELLITE = 'sat-aurora-1';
const PROJECT = 'prj-demo-crops';
const NAMES = { order: 'E2E day archive', aoi: 'E2E day field', index: 'E2E day NDVI' } as const;
const DELIVERY_PATH = 'exports/field-day';
/** seedDemo's 200 scenes: every 20th is a demo catalog record. */
const FIRST_RECORDS = 10;
/** Records the service gains before the second sync. */
const NEW_RECORDS = 5;

/** The app as a new user starts it: it syncs on first connect; checks only when asked. */
const j = useJourney('field-day', {
  app: {
    syncOnFirstConnect: true,
    connectivityIntervalMs: 600_000,
    connectivityOfflineIntervalMs: 600_000,
  },
});
let records: DemoRecord[];
/** The service the last test switches to. */
let other: ReferenceService | undefined;

beforeAll(() => {
  records = recordsOf(j.service.server.app.ctx.sqlite, SATELLITE, 2);
  expect(records).toHaveLength(2);
});

afterAll(() => other?.close());

let step = 0;
const shot = (name: string) => j.shot(`${String(++step).padStart(2, '0')}-${name}`);
const indicator = () => j.page.locator('header [data-test="connectivity-label"]');
const total = () => j.page.locator('[data-test="total"]');
/** The "Work offline" switch of the Sync screen (the caller opens it). */
const workOffline = () => j.page.locator('.sync [data-test="work-offline"]');
const composerItem = () => j.page.locator('[data-test="composer-item-0"]');
const sqlite = () => j.service.server.app.ctx.sqlite;
const rowsOf = (sql: string, ...args: unknown[]) =>
  sqlite()
    .prepare(sql)
    .all(...args);

const outboxList = () => listOutbox(j.app);

describe('a field day in browser mode', () => {
  it('first run: connected, the catalog shows its records and footprints without a press', async () => {
    await j.page.goto(j.app.server.openUrl);
    await connect(j.page, j.service.url, j.apiKey);
    await eventually(() => indicator().textContent()).toBe('Online');
    await j.tab('catalog');
    // Nobody pressed Sync or Search: the first connect synced, the catalog shows what it holds.
    await eventually(() => total().textContent(), 20_000).toContain(String(FIRST_RECORDS));
    await eventually(() => footprintInk(j.page)).toBeGreaterThan(0);
    await shot('first-run-catalog');
  });

  it('after a sync the catalog count is fresh without pressing Search', async () => {
    const nowUs = Date.now() * 1000;
    insertCatalogRecords(sqlite(), NEW_RECORDS, {
      orgId: DEMO.orgId,
      userId: DEMO.users[0].id,
      nowUs,
      idPrefix: 'cat-day',
    });
    // New on the service now (generated records carry their acquisition's dates): an
    // incremental sync picks up what changed since the last one.
    sqlite()
      .prepare(
        `UPDATE catalog_records SET updated_at_us = ?,
           record_json = json_set(record_json, '$.details.properties.updated', ?)
         WHERE id LIKE 'cat-day-%'`,
      )
      .run(nowUs, new Date(nowUs / 1000).toISOString().replace('Z', '000Z'));
    await syncNow(j.page, 20_000);
    await eventually(() =>
      j.page.locator('tr[data-resource="catalogs"] td.num').textContent(),
    ).toBe(String(FIRST_RECORDS + NEW_RECORDS));
    await shot('synced');
    await j.tab('catalog');
    await eventually(() => total().textContent()).toContain(String(FIRST_RECORDS + NEW_RECORDS));
    await shot('catalog-fresh-after-sync');
  });

  it('puts two aurora-1 records in the basket and switches to working offline', async () => {
    for (const r of records) await addResultToBasket(j.page, r.id);
    expect(await j.page.locator('[data-test="basket-count"]').textContent()).toBe('2');
    await j.tab('sync');
    await workOffline().check();
    await eventually(() => indicator().textContent()).not.toBe('Online');
    await shot('basket-and-working-offline');
  });

  it('composes an order of the basket’s archive scenes', async () => {
    await j.tab('orders');
    await j.page.locator('[data-test="new-order"]').click();
    await composerItem().locator('[data-test="field-kind"]').selectOption('archive');
    await composerItem().locator('[data-test="use-selection"]').click();
    await eventually(() =>
      composerItem().locator('[data-test="geometry-state"]').textContent(),
    ).toContain('Footprints of 2 catalog records');
    await composerItem().locator('[data-test="field-name"]').fill(NAMES.order);
    await composerItem().locator('[data-test="field-project"]').fill(PROJECT);
    await shot('order-composed');
    await queueOrder(j.page);
    await eventually(() => j.page.locator('[data-test="basket-notice"]').textContent()).toContain(
      '2 records left the basket',
    );
    await j.page.getByRole('button', { name: 'Dismiss the basket notice' }).click();
  });

  it('composes an AOI over the first scene', async () => {
    await j.tab('aois');
    await j.page.locator('[data-test="new-aoi"]').click();
    await fillAoiForm(j.page, {
      name: NAMES.aoi,
      satelliteId: SATELLITE,
      provider: 'field-team',
      projectId: PROJECT,
      areaFile: writeGeoJson(j.filesDir, 'aoi.geojson', insideOf(records[0]!.footprint)),
      sceneId: records[0]!.sceneId,
    });
    await shot('aoi-composed');
    await queueAoi(j.page, NAMES.aoi);
  });

  it('composes a custom index and a visualization of the queued AOI', async () => {
    await j.tab('indices');
    const index = j.page.locator('[data-test="index-form"]');
    await index.locator('[name="name"]').fill(NAMES.index);
    await index.locator('[name="description"]').fill('NDVI for the field team');
    await index.locator('[name="satellite_id"]').fill(SATELLITE);
    await index.locator('[name="expression"]').fill('(B08 - B04) / (B08 + B04)');
    await index.locator('[name="rescale"]').fill('-1, 1');
    await index.locator('[name="colormap"]').fill('RdYlGn');
    await shot('index-composed');
    await index.locator('[data-test="queue-index"]').click();
    await eventually(() => index.locator('[data-test="form-done"]').textContent()).toContain(
      `“${NAMES.index}”`,
    );

    await j.page.getByRole('tab', { name: 'Visualizations' }).click();
    const vis = j.page.locator('[data-test="visualization-form"]');
    await vis.locator('select[name="aoi"]').selectOption({ label: `${NAMES.aoi} (queued)` });
    await vis.locator('select[name="index"]').selectOption('idx-ndvi-aurora');
    await vis.locator('[data-test="sources-queued"]').waitFor();
    await shot('visualization-composed');
    await vis.locator('[data-test="queue-visualization"]').click();
    await eventually(() => vis.locator('[data-test="form-done"]').textContent()).toContain(
      'Queued:',
    );
  });

  it('composes a delivery of the records and a job for the project', async () => {
    // The order took the records out of the basket: put them back for the delivery.
    await putOrderedBackInBasket(j.page, records);
    await j.tab('deliveries');
    await j.page.getByRole('radio', { name: /Catalog records in the basket \(2\)/ }).check();
    await j.page.getByLabel('Cloud location configuration').fill('s3-field-bucket');
    await j.page.getByLabel('Path in that location').fill(DELIVERY_PATH);
    await shot('delivery-composed');
    await j.page.locator('[data-test="queue-delivery"]').click();
    await eventually(() => j.page.locator('[data-test="form-done"]').textContent()).toBe(
      `Queued: delivery of 2 catalog records to ${DELIVERY_PATH}.`,
    );

    await j.tab('jobs');
    const job = j.page.locator('[data-test="job-form"]');
    // Pressed before anything is filled in: what to correct, in the form's words, at the top;
    // the focus on the first field (item 14).
    expect(await job.locator('[aria-invalid="true"]').count()).toBe(0);
    await job.locator('[data-test="queue-job"]').click();
    await eventually(() => job.locator('[data-test="error-summary"]').textContent()).toContain(
      'Workflow: Choose a workflow',
    );
    expect(await job.locator('[data-test="error-summary"]').textContent()).toContain(
      'Project: Choose a project',
    );
    expect(await j.page.evaluate('document.activeElement.id')).toBe('job-workflow');
    await shot('job-refused-summary');
    await job.locator('[name="workflow_id"]').fill('wf-ndvi-timeseries');
    await job.locator('[name="project_id"]').fill(PROJECT);
    await shot('job-composed');
    await job.locator('[data-test="queue-job"]').click();
    await eventually(() => job.locator('[data-test="form-done"]').textContent()).toBe(
      `Queued: job wf-ndvi-timeseries for ${PROJECT}.`,
    );
    const list = await outboxList();
    expect(list.entries.map((e) => e.kind).sort()).toEqual(
      ['aoi', 'delivery', 'index', 'job', 'order', 'visualization'].sort(),
    );
    expect(new Set(list.entries.map((e) => e.state))).toEqual(new Set(['queued']));
    // Nothing reached the service while working offline.
    expect(rowsOf('SELECT id FROM orders')).toEqual([]);
    await j.tab('outbox');
    await shot('outbox-six-queued');
  });

  it('restarts on the same data folder: still offline, the six entries intact', async () => {
    const before = (await outboxList()).entries.map((e) => [e.id, e.kind, e.state]);
    await j.restartApp({ newPage: true });
    await j.tab('sync');
    await eventually(() => workOffline().isChecked()).toBe(true);
    expect((await outboxList()).entries.map((e) => [e.id, e.kind, e.state])).toEqual(before);
    await j.tab('outbox');
    await shot('after-restart');
  });

  it('reconnects: the order waits for review, is confirmed and everything is submitted', async () => {
    await j.tab('sync');
    await workOffline().uncheck();
    await eventually(() => indicator().textContent()).toBe('Online');
    const notice = j.page.locator('header [data-test="orders-review-notice"]');
    await eventually(() => notice.textContent()).toBe('Confirm 1 order');
    expect(rowsOf('SELECT id FROM orders')).toEqual([]);
    await notice.click();
    const review = j.page.locator('[data-test="order-review"]');
    await eventually(() => review.locator('[data-test="review-price"]').textContent()).toMatch(
      /credits$/,
    );
    await shot('order-review');
    await review.locator('[data-test="send-orders"]').click();
    await eventually(async () => (await outboxList()).counts.sent, 20_000).toBe(6);
    await shot('submitted');
  });

  it('the service holds each create exactly once', () => {
    const count = (table: string, where = '1 = 1') =>
      sqlite().prepare(`SELECT count(*) FROM ${table} WHERE ${where}`).pluck().get();
    expect(count('orders')).toBe(1);
    expect(count('order_items', `name = '${NAMES.order}'`)).toBe(1);
    expect(count('aois')).toBe(1);
    expect(count('indices', `name = '${NAMES.index}'`)).toBe(1);
    expect(count('visualizations')).toBe(1);
    expect(count('deliveries')).toBe(records.length);
    expect(count('jobs')).toBe(1);
  });

  it('every created record reaches a final state, or says why not', async () => {
    j.service.server.app.ctx.worker.drain();
    const statuses = (table: string) =>
      (rowsOf(`SELECT status FROM ${table}`) as Array<{ status: string }>).map((r) => r.status);
    const final = {
      order_items: statuses('order_items'),
      aois: statuses('aois'),
      visualizations: statuses('visualizations'),
      deliveries: statuses('deliveries'),
      jobs: statuses('jobs'),
    };
    for (const [table, list] of Object.entries(final)) {
      expect(list.length, `${table} on the service`).toBeGreaterThan(0);
      for (const status of list) expect(isFinalStatus(status), `${table}: ${status}`).toBe(true);
    }
    // The app follows the AOI to its end without a sync, and shows it.
    await j.tab('aois');
    const aoiRow = j.page.locator('[data-test^="aoi-row-"]', { hasText: NAMES.aoi });
    await eventually(() => aoiRow.textContent(), 20_000).toMatch(/Success|Failed/);
    await shot('aoi-final');
  });

  it('Settings says how the key is really kept in browser mode', async () => {
    await j.tab('settings');
    const keyState = (await j.page.locator('[data-test="key-state"]').textContent())!;
    expect(keyState).toContain('in a file only you can read (not encrypted)');
    expect(keyState).not.toMatch(/stored encrypted|encrypted with/);
    await shot('settings-key');
  });

  it('switching the service URL says the mirror holds the old service’s data', async () => {
    other = await startReferenceService({ dataDir: path.join(j.filesDir, 'other-service') });
    const otherKey = seedService(other, { scenes: 20 });
    await connect(j.page, other.url, otherKey);
    await eventually(() => j.page.getByText('Saved.').isVisible()).toBe(true);
    await j.tab('sync');
    const note = j.page.locator('[data-test="other-services"]');
    const firstOrigin = new URL(j.service.url).origin;
    await eventually(() => note.textContent()).toContain(firstOrigin);
    await shot('switched-service');
    // The screens of mirrored records carry the mark too, as a note naming the old service.
    for (const screen of ['catalog', 'aois', 'outbox'] as const) {
      await j.tab(screen);
      const mark = j.page.locator(`[data-test="other-service-mark"]:visible`);
      await eventually(() => mark.textContent()).toContain(
        `From ${firstOrigin}, not the service now set.`,
      );
      expect(await mark.getAttribute('role')).toBe('note');
    }
    // The first service's key is kept for it (never sent here); this one's is the one in use.
    await j.tab('settings');
    expect(await j.page.locator('[data-test="key-state"]').textContent()).toContain(
      `Key kept for ${new URL(other.url).origin}.`,
    );
    expect(await j.page.locator('[data-test="kept-keys"]').textContent()).toContain(firstOrigin);
  });
});
