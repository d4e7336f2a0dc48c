/**
 * A field day without surprises (issue 26), in headless Chromium against the real reference
 * service: a misspelt workflow and project are flagged in the job form with the nearest known
 * ones and mended in one click (defect 4); an archive order of a very-high-resolution scene over
 * more than the scene covers is confirmed with each item's price, the uplift and the service's
 * warning shown before it is paid (defect 5); once sent, the order is followed to paid and its
 * item to completed without a sync, and a notice says so (defect 1); an AOI sent today is in
 * "Export the AOIs listed" before any sync, read back by GDAL (defect 9). Screenshots in
 * test-output/e2e/field-day-follow/.
 */
import type { Polygon } from '@eo/domain';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OutboxList } from '../../shared/contract';
import { writeGeoJson } from '../field-files';
import { insideOf, recordsOf, type DemoRecord } from '../footprints';
import { useJourney, WIDE } from '../harness';
import { eventually, fillAoiForm, importItemArea, queueAoi, queueOrder } from '../page-actions';

const PROJECT = 'prj-demo-crops';
const ORDER = 'Kestrel field, whole farm';
const AOI = 'Vines of the day';

const j = useJourney('field-day-follow', {
  page: { ...WIDE, acceptDownloads: true },
  open: 'synced',
});
let kestrel: DemoRecord;
let aurora: DemoRecord;

beforeAll(() => {
  [kestrel] = recordsOf(j.service.server.app.ctx.sqlite, 'sat-kestrel-1', 1) as [DemoRecord];
  [aurora] = recordsOf(j.service.server.app.ctx.sqlite, 'sat-aurora-1', 1) as [DemoRecord];
  expect(kestrel).toBeDefined();
  expect(aurora).toBeDefined();
});

let step = 0;
const shot = (name: string) => j.shot(`${String(++step).padStart(2, '0')}-${name}`);
const outbox = () => j.app.call<OutboxList>('outbox.list');
const worker = () => j.service.server.app.ctx.worker;

/** The footprint's box grown by half its size on every side: more than the scene covers. */
function beyond(footprint: Polygon): Polygon {
  const ring = footprint.coordinates[0]!;
  const xs = ring.map((p) => p[0]!);
  const ys = ring.map((p) => p[1]!);
  const [w, e, s, n] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const [dx, dy] = [(e - w) / 2, (n - s) / 2];
  const box = [w - dx, s - dy, e + dx, n + dy] as const;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [box[0], box[1]],
        [box[2], box[1]],
        [box[2], box[3]],
        [box[0], box[3]],
        [box[0], box[1]],
      ],
    ],
  };
}

describe('a field day: mistakes caught, prices seen, orders followed, exports whole', () => {
  it('a misspelt workflow and project are flagged with the nearest ones, mended in one click', async () => {
    await j.tab('jobs');
    const job = j.page.locator('[data-test="job-form"]');
    await job.locator('[name="workflow_id"]').fill('wf-ndvi-timesries');
    await job.locator('[name="project_id"]').fill('prj-demo-crop');
    await eventually(() => job.locator('#job-workflow-error').textContent()).toContain(
      'Did you mean wf-ndvi-timeseries',
    );
    expect(await job.locator('#job-project-error').textContent()).toContain(
      'Did you mean prj-demo-crops',
    );
    await job.locator('[data-test="queue-job"]').click();
    // Refused in the form: nothing queued, the focus on the first field to mend.
    expect(await j.page.evaluate('document.activeElement.id')).toBe('job-workflow');
    expect((await outbox()).entries).toEqual([]);
    await shot('job-typos-flagged');

    await job.locator('[data-test="job-workflow-nearest-choice"]').first().click();
    await job.locator('[data-test="job-project-nearest-choice"]').first().click();
    await job.locator('[data-test="queue-job"]').click();
    await eventually(() => job.locator('[data-test="form-done"]').textContent()).toBe(
      `Queued: job wf-ndvi-timeseries for ${PROJECT}.`,
    );
    await shot('job-mended');
  });

  it('the order confirmation shows each item’s price, the uplift and the warning before paying', async () => {
    await j.tab('orders');
    await j.page.locator('[data-test="new-order"]').click();
    const item = j.page.locator('[data-test="composer-item-0"]');
    await item.locator('[data-test="field-kind"]').selectOption('archive');
    await item.locator('[data-test="field-name"]').fill(ORDER);
    await item.locator('[data-test="field-project"]').fill(PROJECT);
    await item.locator('[data-test="field-item-ids"]').fill(kestrel.sceneId);
    await importItemArea(item, writeGeoJson(j.filesDir, 'farm.geojson', beyond(kestrel.footprint)));
    await queueOrder(j.page);

    const notice = j.page.locator('header [data-test="orders-review-notice"]');
    await eventually(() => notice.textContent()).toBe('Confirm 1 order');
    await notice.click();
    const review = j.page.locator('[data-test="order-review"]');
    const row = review.locator('[data-test="review-item"]');
    await eventually(() => row.count()).toBe(1);
    expect(await row.locator('[data-test="review-item-name"]').textContent()).toBe(ORDER);
    expect(await row.locator('[data-test="review-item-area"]').textContent()).toMatch(/km²$/);
    expect(await row.locator('[data-test="review-item-uplifts"]').textContent()).toContain(
      'Very high resolution +30 %',
    );
    expect(await row.locator('[data-test="review-item-warnings"]').textContent()).toContain(
      'the scenes do not cover the whole geometry',
    );
    const price = await row.locator('[data-test="review-item-final"]').textContent();
    expect(await review.locator('[data-test="review-price"]').textContent()).toBe(price);
    await shot('order-review-items');

    await review.locator('[data-test="send-orders"]').click();
    await eventually(async () =>
      (await outbox()).entries.filter((e) => e.kind === 'order' && e.state === 'sent'),
    ).toHaveLength(1);
  });

  it('the sent order is followed to paid and completed without a sync, and a notice says so', async () => {
    const sentOrder = (await outbox()).entries.find((e) => e.kind === 'order')!;
    const orderId = sentOrder.remoteId!;
    await j.tab('orders');
    const orderRow = j.page.locator(`[data-test="order-row-${orderId}"]`);
    await eventually(() => orderRow.textContent()).toContain('Not paid');
    // The service takes the payment and delivers the scene; nobody presses Sync.
    worker().drain();
    await eventually(() => orderRow.textContent(), 15_000).toContain('Paid');
    await orderRow.click();
    await eventually(() =>
      j.page.locator('[data-test^="item-"] .item__badges').first().textContent(),
    ).toContain('Completed');
    const toast = j.page.locator('[data-test="notification-orders"]');
    await eventually(() => toast.textContent()).toMatch(/Paid · 1 item completed/);
    await shot('order-followed');
  });

  it('an AOI sent today is in "Export the AOIs listed" before any sync, read back by GDAL', async () => {
    await j.tab('aois');
    await j.page.locator('[data-test="new-aoi"]').click();
    await fillAoiForm(j.page, {
      name: AOI,
      satelliteId: 'sat-aurora-1',
      provider: 'aurora-archive',
      projectId: PROJECT,
      areaFile: writeGeoJson(j.filesDir, 'vines.geojson', insideOf(aurora.footprint)),
      sceneId: aurora.sceneId,
    });
    await queueAoi(j.page, AOI);
    await j.tab('outbox');
    await j.page.locator('[data-test="submit-all"]').click();
    await eventually(async () =>
      (await outbox()).entries.filter((e) => e.kind === 'aoi' && e.state === 'sent'),
    ).toHaveLength(1);

    await j.tab('aois');
    // Written into the mirror when it was sent: listed before any sync.
    const rows = j.page.locator('[data-test^="aoi-row-"]');
    await eventually(() => rows.filter({ hasText: AOI }).count()).toBe(1);
    const listed = await rows.count();
    const [download] = await Promise.all([
      j.page.waitForEvent('download'),
      j.page.locator('[data-test="export-aois-run"]').click(),
    ]);
    const saved = path.join(j.filesDir, download.suggestedFilename());
    await download.saveAs(saved);
    await eventually(() =>
      j.page.locator('[data-test="export-aois-outcome"]').textContent(),
    ).toContain(`(${listed} feature`);
    const info = execFileSync('ogrinfo', ['-ro', '-al', saved], { encoding: 'utf8' });
    expect(info).toMatch(new RegExp(`Feature Count: ${listed}\\b`));
    expect(info).toContain(AOI);
    expect(info).toMatch(/Geometry: (Multi )?Polygon/);
    await shot('aois-exported');
  });
});
